#!/usr/bin/env python3
"""Signs the documents of the scenarios of Apple's 2026 model with the test chain of
Tests/EntitlementsVerificationTests/Generated (whose root is root.der there):

    python3 Tests/EntitlementsCLITests/Generated/sign-apple-2026.py

Writes apple-2026-signed.json: for each scenario file, its documents as a backend receives them,
signed: a v2 notification as a POST body (`signedPayload`, its transaction and renewal info
signed inside), a transaction or renewal info alone as a JWS. Needs the `cryptography` package;
the Swift tests read the committed output. Signatures are RFC 6979's: running it again writes
the same bytes.
"""
import importlib.util
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SCENARIOS = [
    "prorated-refund-ends-access-at-revocation", "full-refund-voids-by-default",
    "family-revoke-ends-access-at-revocation", "refund-reversed-restores-every-revocation-type",
    "commitment-twelve-payments-renewal-off", "sandbox-commitment-billing-retry-by-the-month",
    "apple-2026-model-together",
]


def chain_module():
    path = ROOT / "Tests/EntitlementsVerificationTests/Generated/generate.py"
    spec = importlib.util.spec_from_file_location("generate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    g = chain_module()
    # The chain of generate.py's main(), made again from the same labels.
    root_key, intermediate_key = g.key("root", "P-384"), g.key("intermediate", "P-384")
    leaf_key = g.key("leaf", "P-256")
    root = g.certificate("Test Root CA", root_key, "Test Root CA", root_key, serial=1,
                         not_before=g.date(2020), not_after=g.date(2055), ca=True,
                         key_usage="ca")
    intermediate = g.certificate("Test WWDR CA", intermediate_key, "Test Root CA", root_key,
                                 serial=2, not_before=g.date(2021), not_after=g.date(2036),
                                 ca=True, path_length=0, key_usage="ca",
                                 apple_oid=g.APPLE_INTERMEDIATE)
    leaf = g.certificate("Test Receipt Signing", leaf_key, "Test WWDR CA", intermediate_key,
                         serial=3, not_before=g.date(2025), not_after=g.date(2027), ca=False,
                         key_usage="sign", apple_oid=g.APPLE_LEAF)
    assert g.b64url(root) and (HERE.parents[1] / "EntitlementsVerificationTests/Generated/root.der"
                               ).read_bytes() == root, "the chain differs from generate.py's"
    header = {"alg": "ES256", "x5c": g.x5c(leaf, intermediate, root)}

    def sign(payload):
        return g.compact(header, payload, leaf_key)

    def signed(document):
        if "notificationType" not in document:
            return sign(document)
        inner = json.loads(json.dumps(document))
        data = inner.get("data", {})
        for key in ("signedTransactionInfo", "signedRenewalInfo"):
            if isinstance(data.get(key), dict):
                data[key] = sign(data[key])
        return {"signedPayload": sign(inner)}

    output = {}
    for name in SCENARIOS:
        scenario = json.loads((ROOT / "Scenarios" / (name + ".json")).read_text())
        output["Scenarios/%s.json" % name] = [signed(d) for d in scenario["documents"]]
    (HERE / "apple-2026-signed.json").write_text(json.dumps(output, indent=1) + "\n")
    print("wrote %s" % (HERE / "apple-2026-signed.json"))


if __name__ == "__main__":
    main()
