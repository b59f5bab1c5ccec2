#!/usr/bin/env python3
"""Generates the signed data the verifier's tests read (issue 25).

    python3 Tests/EntitlementsVerificationTests/Generated/generate.py

Needs Python 3 and the `cryptography` package (48 here); the Swift tests need neither: they
read the committed outputs beside this script.

- jws-cases.json: a certificate chain of our own shaped like Apple's (a P-384 root and
  intermediate signing with ecdsa-with-SHA384, the intermediate with Apple's OID
  1.2.840.113635.100.6.2.1, a P-256 leaf with Apple's OID 1.2.840.113635.100.6.11.1), JWS
  signed under it, and one JWS for every way a JWS must be refused, each with the verifier's
  configuration and the expected outcome (`verified`, or the failed step and certificate).
- root.der: the chain's root alone (DER), for the fuzz target and for
  `entitlements verify --root`.
- signatures.json: random keys (P-256 and P-384) and random messages with their signatures,
  for the seeded property test.

Everything is deterministic: keys derive from labels, ECDSA signatures are RFC 6979's
(deterministic_signing), dates are fixed. Running it again rewrites the same bytes.
"""

import base64
import datetime
import hashlib
import hmac
import json
import os
import random

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, utils
from cryptography.x509.oid import NameOID, ObjectIdentifier

HERE = os.path.dirname(os.path.abspath(__file__))
APPLE_INTERMEDIATE = ObjectIdentifier("1.2.840.113635.100.6.2.1")
APPLE_LEAF = ObjectIdentifier("1.2.840.113635.100.6.11.1")
UNKNOWN_CRITICAL = ObjectIdentifier("1.3.6.1.4.1.55555.1")
UTC = datetime.timezone.utc

# The instant every payload is signed at: 2025-10-01T12:00:00Z.
SIGNED_DATE = 1_759_320_000_000
BUNDLE = "com.example.app"


def date(year, month=1, day=1):
    return datetime.datetime(year, month, day, tzinfo=UTC)


CURVES = {
    "P-256": (0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551, ec.SECP256R1),
    "P-384": (0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973,
              ec.SECP384R1),
    "secp256k1": (0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141, ec.SECP256K1),
}


def key(label, curve):
    """A private key derived from a label: the same on every run."""
    if curve == "Ed25519":
        return ed25519.Ed25519PrivateKey.from_private_bytes(hashlib.sha256(label.encode()).digest())
    order, curve_class = CURVES[curve]
    scalar = int.from_bytes(hashlib.sha512(label.encode()).digest(), "big") % (order - 1) + 1
    return ec.derive_private_key(scalar, curve_class())


def name(common):
    return x509.Name([
        x509.NameAttribute(NameOID.COMMON_NAME, common),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Entitlements tests"),
    ])


def certificate(subject, subject_key, issuer, issuer_key, *, serial, not_before, not_after,
                ca=None, path_length=None, key_usage=None, apple_oid=None, digest=hashes.SHA384,
                extra=()):
    """A DER certificate; an Ed25519 issuer signs with Ed25519 (no digest), any other with
    deterministic ECDSA."""
    builder = (x509.CertificateBuilder()
               .subject_name(name(subject)).issuer_name(name(issuer))
               .public_key(subject_key.public_key()).serial_number(serial)
               .not_valid_before(not_before).not_valid_after(not_after))
    if ca is not None:
        builder = builder.add_extension(
            x509.BasicConstraints(ca=ca, path_length=path_length if ca else None), critical=True)
    if key_usage == "sign":
        builder = builder.add_extension(usage(digital_signature=True), critical=True)
    elif key_usage == "ca":
        builder = builder.add_extension(usage(key_cert_sign=True, crl_sign=True), critical=True)
    elif key_usage == "crl-only":
        builder = builder.add_extension(usage(crl_sign=True), critical=True)
    if apple_oid is not None:
        builder = builder.add_extension(
            x509.UnrecognizedExtension(apple_oid, b"\x05\x00"), critical=False)
    for oid, critical in extra:
        builder = builder.add_extension(x509.UnrecognizedExtension(oid, b"\x05\x00"), critical=critical)
    if isinstance(issuer_key, ed25519.Ed25519PrivateKey):
        signed = builder.sign(issuer_key, None)
    else:
        signed = builder.sign(issuer_key, digest(), ecdsa_deterministic=True)
    return signed.public_bytes(serialization.Encoding.DER)


# DER, just enough to relabel a certificate's signature algorithm.
def der_element(data, offset=0):
    """(tag, content, end) of the element at offset."""
    tag, length = data[offset], data[offset + 1]
    offset += 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(data[offset:offset + count], "big")
        offset += count
    return tag, data[offset:offset + length], offset + length


def der_children(content):
    children, offset = [], 0
    while offset < len(content):
        start = offset
        _, _, offset = der_element(content, offset)
        children.append(content[start:offset])
    return children


def der(tag, content):
    length = len(content)
    if length < 0x80:
        return bytes([tag, length]) + content
    encoded = length.to_bytes((length.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(encoded)]) + encoded + content


# sha384WithRSAEncryption (RFC 4055), parameters NULL.
SHA384_WITH_RSA = bytes.fromhex("300d06092a864886f70d01010c0500")


def relabelled(certificate_der, algorithm, issuer_key, digest=hashes.SHA384):
    """The certificate with `algorithm` (an encoded AlgorithmIdentifier) in place of its own,
    in the signed part and outside, and a valid ECDSA signature by issuer_key over the new
    signed part: only the algorithm it names is wrong."""
    _, content, _ = der_element(certificate_der)
    tbs_der, _, _ = der_children(content)
    _, tbs_content, _ = der_element(tbs_der)
    fields = der_children(tbs_content)
    index = 2 if fields[0][0] == 0xA0 else 1
    fields[index] = algorithm
    tbs = der(0x30, b"".join(fields))
    signature = issuer_key.sign(tbs, ec.ECDSA(digest(), deterministic_signing=True))
    return der(0x30, tbs + algorithm + der(0x03, b"\x00" + signature))


def usage(digital_signature=False, key_cert_sign=False, crl_sign=False):
    return x509.KeyUsage(digital_signature=digital_signature, content_commitment=False,
                         key_encipherment=False, data_encipherment=False, key_agreement=False,
                         key_cert_sign=key_cert_sign, crl_sign=crl_sign, encipher_only=False,
                         decipher_only=False)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def es_sign(private_key, message, digest=hashes.SHA256, size=32):
    der = private_key.sign(message, ec.ECDSA(digest(), deterministic_signing=True))
    r, s = utils.decode_dss_signature(der)
    return r.to_bytes(size, "big") + s.to_bytes(size, "big")


def compact(header, payload, signer, *, alg="ES256"):
    h = b64url(json.dumps(header, separators=(",", ":")).encode())
    p = b64url(payload if isinstance(payload, bytes) else
               json.dumps(payload, separators=(",", ":")).encode())
    signing_input = f"{h}.{p}".encode()
    if alg == "none":
        signature = b""
    elif alg == "HS256":
        signature = hmac.new(b"a shared secret", signing_input, hashlib.sha256).digest()
    elif alg == "ES384":
        signature = es_sign(signer, signing_input, hashes.SHA384, 48)
    else:
        signature = es_sign(signer, signing_input)
    return f"{h}.{p}.{b64url(signature)}"


def x5c(*certificates):
    return [base64.b64encode(c).decode() for c in certificates]


def transaction(**changes):
    payload = {
        "transactionId": "2000000000000002", "originalTransactionId": "2000000000000001",
        "bundleId": BUNDLE, "productId": "com.example.monthly",
        "purchaseDate": SIGNED_DATE - 60_000, "expiresDate": SIGNED_DATE + 2_592_000_000,
        "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
        "signedDate": SIGNED_DATE, "environment": "Sandbox",
    }
    payload.update(changes)
    return {k: v for k, v in payload.items() if v is not None}


def renewal_info(**changes):
    payload = {
        "originalTransactionId": "2000000000000001", "autoRenewProductId": "com.example.monthly",
        "productId": "com.example.monthly", "autoRenewStatus": 1,
        "signedDate": SIGNED_DATE, "environment": "Sandbox",
    }
    payload.update(changes)
    return payload


def main():
    # The chain, shaped like Apple's.
    root_key = key("root", "P-384")
    intermediate_key = key("intermediate", "P-384")
    leaf_key = key("leaf", "P-256")
    other_key = key("other", "P-384")
    root = certificate("Test Root CA", root_key, "Test Root CA", root_key, serial=1,
                       not_before=date(2020), not_after=date(2055), ca=True, key_usage="ca")
    intermediate = certificate("Test WWDR CA", intermediate_key, "Test Root CA", root_key,
                               serial=2, not_before=date(2021), not_after=date(2036), ca=True,
                               path_length=0, key_usage="ca", apple_oid=APPLE_INTERMEDIATE)
    leaf = certificate("Test Receipt Signing", leaf_key, "Test WWDR CA", intermediate_key,
                       serial=3, not_before=date(2025), not_after=date(2027), ca=False,
                       key_usage="sign", apple_oid=APPLE_LEAF)
    other_root = certificate("Test Root CA", other_key, "Test Root CA", other_key, serial=9,
                             not_before=date(2020), not_after=date(2055), ca=True,
                             key_usage="ca")

    def variant_intermediate(issuer="Test Root CA", **changes):
        arguments = dict(serial=20, not_before=date(2021), not_after=date(2036), ca=True,
                         path_length=0, key_usage="ca", apple_oid=APPLE_INTERMEDIATE)
        arguments.update(changes)
        issuer_key = arguments.pop("issuer_key", root_key)
        return certificate("Test WWDR CA", intermediate_key, issuer, issuer_key, **arguments)

    def variant_leaf(subject_key=leaf_key, issuer="Test WWDR CA", **changes):
        arguments = dict(serial=30, not_before=date(2025), not_after=date(2027), ca=False,
                         key_usage="sign", apple_oid=APPLE_LEAF)
        arguments.update(changes)
        issuer_key = arguments.pop("issuer_key", intermediate_key)
        return certificate("Test Receipt Signing", subject_key, issuer, issuer_key, **arguments)

    def variant_root(subject_key=root_key, **changes):
        arguments = dict(serial=10, not_before=date(2020), not_after=date(2055), ca=True,
                         key_usage="ca")
        arguments.update(changes)
        return certificate("Test Root CA", subject_key, "Test Root CA", subject_key, **arguments)

    header = {"alg": "ES256", "x5c": x5c(leaf, intermediate, root)}
    good = compact(header, transaction(), leaf_key)
    cases = []

    def case(name, jws, expect, position=None, **config):
        entry = {"name": name, "jws": jws, "expect": expect}
        if position:
            entry["position"] = position
        entry.update(config)
        cases.append(entry)

    def chain_case(name, certificates, expect, position=None, signer=leaf_key, **config):
        jws = compact({"alg": "ES256", "x5c": x5c(*certificates)}, transaction(), signer)
        case(name, jws, expect, position, **config)

    # Accepted.
    case("a transaction under the Apple-shaped chain", good, "verified")
    case("renewal info (no bundleId)", compact(header, renewal_info(), leaf_key), "verified")
    case("with a header field Apple may add (typ, kid)",
         compact({"alg": "ES256", "typ": "JWT", "kid": "k", "x5c": header["x5c"]},
                 transaction(), leaf_key), "verified")
    case("no bundle id or environment expected", good, "verified", bundleId=None, environment=None)
    case("at a caller-given instant inside every validity", good, "verified",
         validAt=1_780_000_000_000)
    p256_root_key = key("p256-root", "P-256")
    p256_intermediate_key = key("p256-intermediate", "P-256")
    p256_root = certificate("P-256 Root", p256_root_key, "P-256 Root", p256_root_key, serial=40,
                            not_before=date(2020), not_after=date(2040), ca=True, key_usage="ca",
                            digest=hashes.SHA256)
    p256_intermediate = certificate("P-256 CA", p256_intermediate_key, "P-256 Root",
                                    p256_root_key, serial=41, not_before=date(2021),
                                    not_after=date(2036), ca=True, path_length=0,
                                    apple_oid=APPLE_INTERMEDIATE, digest=hashes.SHA256)
    p256_leaf = certificate("P-256 Leaf", leaf_key, "P-256 CA", p256_intermediate_key,
                            serial=42, not_before=date(2025), not_after=date(2027), ca=False,
                            apple_oid=APPLE_LEAF, digest=hashes.SHA256)
    case("an all-P-256 chain signed with SHA-256 (like Apple's test CA)",
         compact({"alg": "ES256", "x5c": x5c(p256_leaf, p256_intermediate, p256_root)},
                 transaction(), leaf_key), "verified", roots=["p256-root"])

    # Step 1: the header.
    case("alg none", compact({"alg": "none", "x5c": header["x5c"]}, transaction(), None,
                             alg="none"), "unexpectedAlgorithm")
    case("alg HS256", compact({"alg": "HS256", "x5c": header["x5c"]}, transaction(), None,
                              alg="HS256"), "unexpectedAlgorithm")
    case("alg ES384", compact({"alg": "ES384", "x5c": header["x5c"]}, transaction(),
                              key("es384", "P-384"), alg="ES384"), "unexpectedAlgorithm")
    case("no alg", compact({"x5c": header["x5c"]}, transaction(), leaf_key), "malformed")
    case("no x5c", compact({"alg": "ES256"}, transaction(), leaf_key), "malformed")
    case("a crit header", compact({"alg": "ES256", "crit": ["b64"], "b64": True,
                                   "x5c": header["x5c"]}, transaction(), leaf_key), "malformed")
    chain_case("two certificates", [leaf, intermediate], "invalidChainLength")
    chain_case("four certificates", [leaf, intermediate, root, root], "invalidChainLength")
    chain_case("one certificate, Apple-shaped", [leaf], "invalidChainLength")
    bad_base64 = {"alg": "ES256", "x5c": header["x5c"][:1] + ["MII*not base64"] + header["x5c"][2:]}
    case("an x5c entry not base64", compact(bad_base64, transaction(), leaf_key), "malformed")
    garbage = {"alg": "ES256", "x5c": [header["x5c"][0], base64.b64encode(b"\x30\x03\x02\x01\x01").decode(), header["x5c"][2]]}
    case("an intermediate that is not a certificate", compact(garbage, transaction(), leaf_key),
         "malformed")

    # Steps 2 and 3: the chain.
    case("root not trusted (Apple's root expected)", good, "untrustedRoot", roots=["apple"])
    other_intermediate = certificate("Test WWDR CA", intermediate_key, "Test Root CA", other_key,
                                     serial=50, not_before=date(2021), not_after=date(2036),
                                     ca=True, path_length=0, key_usage="ca",
                                     apple_oid=APPLE_INTERMEDIATE)
    chain_case("a chain to another root", [leaf, other_intermediate, other_root], "untrustedRoot")
    chain_case("chain reordered: intermediate first", [intermediate, leaf, root], "issuerMismatch",
               "leaf")
    chain_case("chain reordered: root in the middle", [leaf, root, intermediate], "untrustedRoot")
    chain_case("leaf issued in another name",
               [variant_leaf(issuer="Someone Else CA"), intermediate, root],
               "issuerMismatch", "leaf")
    chain_case("intermediate issued in another name (signed by the root's key)",
               [leaf, variant_intermediate(issuer="Someone Else Root"), root],
               "issuerMismatch", "intermediate")
    chain_case("leaf signed by another key", [variant_leaf(issuer_key=other_key), intermediate,
                                              root], "invalidChainSignature", "leaf")
    chain_case("intermediate signed by another key",
               [leaf, variant_intermediate(issuer_key=other_key), root],
               "invalidChainSignature", "intermediate")
    # Keys and algorithms the chain cannot verify with: each would verify if the check let it.
    ed25519_root_key = key("ed25519-root", "Ed25519")
    secp256k1_root_key = key("secp256k1-root", "secp256k1")
    chain_case("intermediate signed by a root with an Ed25519 key (not EC, not ECDSA)",
               [leaf, variant_intermediate(issuer_key=ed25519_root_key),
                variant_root(subject_key=ed25519_root_key)],
               "invalidChainSignature", "intermediate", roots=["root-ed25519"])
    chain_case("intermediate signed by a root with a secp256k1 key (a curve not supported)",
               [leaf, variant_intermediate(issuer_key=secp256k1_root_key, digest=hashes.SHA256),
                variant_root(subject_key=secp256k1_root_key, digest=hashes.SHA256)],
               "invalidChainSignature", "intermediate", roots=["root-secp256k1"])
    chain_case("leaf whose algorithm says sha384WithRSAEncryption over a valid ECDSA signature",
               [relabelled(variant_leaf(), SHA384_WITH_RSA, intermediate_key), intermediate, root],
               "invalidChainSignature", "leaf")
    chain_case("intermediate without the CA flag", [leaf, variant_intermediate(ca=False), root],
               "notCertificateAuthority", "intermediate")
    chain_case("intermediate without basic constraints",
               [leaf, variant_intermediate(ca=None), root], "notCertificateAuthority",
               "intermediate")
    chain_case("intermediate whose key usage forbids signing certificates",
               [leaf, variant_intermediate(key_usage="crl-only"), root],
               "notCertificateAuthority", "intermediate")
    chain_case("root whose key usage forbids signing certificates",
               [leaf, intermediate, variant_root(key_usage="crl-only")],
               "notCertificateAuthority", "root", roots=["root-crl-only"])
    chain_case("root without the CA flag", [leaf, intermediate, variant_root(ca=False)],
               "notCertificateAuthority", "root", roots=["root-not-ca"])
    chain_case("root allowing no CA below it", [leaf, intermediate, variant_root(path_length=0)],
               "notCertificateAuthority", "root", roots=["root-path-0"])
    chain_case("root (v3) without basic constraints", [leaf, intermediate, variant_root(ca=None)],
               "notCertificateAuthority", "root", roots=["root-no-constraints"])
    chain_case("intermediate without Apple's OID", [leaf, variant_intermediate(apple_oid=None),
                                                    root], "missingAppleOID", "intermediate")
    chain_case("leaf without Apple's OID", [variant_leaf(apple_oid=None), intermediate, root],
               "missingAppleOID", "leaf")
    chain_case("leaf with an unknown critical extension",
               [variant_leaf(extra=[(UNKNOWN_CRITICAL, True)]), intermediate, root],
               "unsupportedCriticalExtension", "leaf")
    chain_case("leaf with an unknown extension, not critical",
               [variant_leaf(extra=[(UNKNOWN_CRITICAL, False)]), intermediate, root], "verified")
    p384_leaf_key = key("p384-leaf", "P-384")
    chain_case("leaf with a P-384 key", [variant_leaf(subject_key=p384_leaf_key), intermediate,
                                         root], "unexpectedAlgorithm", signer=leaf_key)
    chain_case("leaf with an Ed25519 key",
               [variant_leaf(subject_key=key("ed25519-leaf", "Ed25519")), intermediate, root],
               "unexpectedAlgorithm", signer=leaf_key)

    # Step 4: validity at signedDate.
    chain_case("leaf expired at signedDate", [variant_leaf(not_after=date(2025, 6)), intermediate,
                                              root], "certificateExpired", "leaf")
    chain_case("leaf not yet valid at signedDate",
               [variant_leaf(not_before=date(2025, 11)), intermediate, root],
               "certificateExpired", "leaf")
    chain_case("intermediate not yet valid at signedDate",
               [leaf, variant_intermediate(not_before=date(2026)), root], "certificateExpired",
               "intermediate")
    chain_case("root expired at signedDate", [leaf, intermediate, variant_root(not_after=date(2025, 3))],
               "certificateExpired", "root", roots=["root-expired"])
    case("a caller-given instant after the leaf expires", good, "certificateExpired", "leaf",
         validAt=1_900_000_000_000)
    # Both sides of each edge (Validity.contains): notBefore and notAfter are inclusive, and
    # an instant counts by its second, rounded down, so notAfter + 999 ms is still inside.
    edge = datetime.datetime.fromtimestamp(SIGNED_DATE // 1000, UTC)
    starting = {"alg": "ES256", "x5c": x5c(variant_leaf(not_before=edge), intermediate, root)}
    ending = {"alg": "ES256", "x5c": x5c(variant_leaf(not_after=edge), intermediate, root)}
    for name, jws_header, signed_date, expect in [
        ("signed exactly at the leaf's notBefore", starting, SIGNED_DATE, "verified"),
        ("signed 1 ms before the leaf's notBefore", starting, SIGNED_DATE - 1,
         "certificateExpired"),
        ("signed exactly at the leaf's notAfter", ending, SIGNED_DATE, "verified"),
        ("signed 999 ms after the leaf's notAfter (the same second)", ending, SIGNED_DATE + 999,
         "verified"),
        ("signed 1 s after the leaf's notAfter", ending, SIGNED_DATE + 1000,
         "certificateExpired"),
    ]:
        case(name, compact(jws_header, transaction(signedDate=signed_date), leaf_key), expect,
             "leaf" if expect != "verified" else None)
    # Before 1970 the second is rounded down too: -1 ms is in 1969-12-31T23:59:59Z.
    from_1970 = {"alg": "ES256", "x5c": x5c(
        variant_leaf(not_before=date(1970)), variant_intermediate(not_before=date(1969)),
        variant_root(not_before=date(1969)))}
    case("at 1970-01-01T00:00:00Z, the leaf's notBefore", compact(from_1970, transaction(),
                                                                  leaf_key),
         "verified", roots=["root-1969"], validAt=0)
    case("1 ms before 1970, before the leaf's notBefore", compact(from_1970, transaction(),
                                                                  leaf_key),
         "certificateExpired", "leaf", roots=["root-1969"], validAt=-1)
    case("no signedDate", compact(header, transaction(signedDate=None), leaf_key), "malformed")
    case("no signedDate, a caller-given instant", compact(header, transaction(signedDate=None),
                                                          leaf_key), "verified",
         validAt=SIGNED_DATE)

    # Step 5: the signature.
    h, p, s = good.split(".")
    middle = len(p) // 2
    changed_payload = p[:middle] + ("A" if p[middle] != "A" else "B") + p[middle + 1:]
    case("payload byte changed", f"{h}.{changed_payload}.{s}", "invalidSignature")
    other_header = b64url(json.dumps({"alg": "ES256", "typ": "JOSE", "x5c": header["x5c"]},
                                     separators=(",", ":")).encode())
    case("header byte changed", f"{other_header}.{p}.{s}", "invalidSignature")
    signature = bytearray(base64.urlsafe_b64decode(s + "=="))
    signature[40] ^= 0x01
    case("signature changed", f"{h}.{p}.{b64url(bytes(signature))}", "invalidSignature")
    case("signature signed by another P-256 key",
         compact(header, transaction(), key("stranger", "P-256")), "invalidSignature")
    case("signature truncated", f"{h}.{p}.{s[:78]}", "malformed")
    case("signature empty", f"{h}.{p}.", "malformed")
    case("signature DER-encoded", f"{h}.{p}.{b64url(utils.encode_dss_signature(int.from_bytes(signature[:32], 'big'), int.from_bytes(signature[32:], 'big')))}", "malformed")
    cut = len(p) - (len(p) - 1) % 4
    cut = cut - 4 if cut == len(p) else cut
    case("payload truncated to a length base64url cannot have", f"{h}.{p[:cut]}.{s}",
         "malformed")
    case("payload with a character outside base64url", f"{h}.{p[:10]}+{p[11:]}.{s}", "malformed")
    case("payload padded", f"{h}.{p}=.{s}", "malformed")
    case("header truncated", f"{h[:-5]}.{p}.{s}", "malformed")
    case("header with a character outside base64url", f"{h[:7]}*{h[8:]}.{p}.{s}", "malformed")
    case("header empty", f".{p}.{s}", "malformed")
    case("signature with a character outside base64url", f"{h}.{p}.{s[:20]}+{s[21:]}",
         "malformed")
    case("two parts", f"{h}.{p}", "malformed")
    case("four parts", f"{h}.{p}.{s}.{s}", "malformed")
    case("payload not JSON", compact(header, b"not json", leaf_key), "malformed")
    case("payload JSON with a trailing comma",
         compact(header, b'{"bundleId":"com.example.app","signedDate":1759320000000,'
                         b'"environment":"Sandbox",}', leaf_key), "malformed")
    case("payload giving bundleId twice",
         compact(header, b'{"bundleId":"com.example.app","bundleId":"com.other",'
                         b'"signedDate":1759320000000,"environment":"Sandbox"}', leaf_key),
         "malformed")

    # Step 6: the claims.
    case("wrong bundle id", compact(header, transaction(bundleId="com.other.app"), leaf_key),
         "bundleMismatch")
    case("wrong environment", compact(header, transaction(environment="Production"), leaf_key),
         "environmentMismatch")
    case("no environment", compact(header, transaction(environment=None), leaf_key),
         "environmentMismatch")
    case("claims written with JSON escapes, compared decoded",
         compact(header, b'{"bundle\\u0049d":"com.example\\u002eapp",'
                         b'"signedDate":1759320000000,"environment":"Sandbox"}', leaf_key),
         "verified")
    production = dict(environment="Production", appAppleId=1234)

    def notification(data, **top):
        payload = {"notificationType": "DID_RENEW", "notificationUUID": "u-1", "data": data,
                   "version": "2.0", "signedDate": SIGNED_DATE}
        payload.update(top)
        return payload

    case("a production transaction with another appAppleId",
         compact(header, transaction(environment="Production", appAppleId=99), leaf_key),
         "appAppleIdMismatch", **production)
    case("a production transaction without appAppleId (only a notification must carry it)",
         compact(header, transaction(environment="Production"), leaf_key), "verified",
         **production)
    case("a sandbox transaction with another appAppleId (compared in production only)",
         compact(header, transaction(appAppleId=99), leaf_key), "verified", appAppleId=1234)
    nested_transaction = compact(header, transaction(environment="Production"), leaf_key)
    nested_renewal = compact(header, renewal_info(environment="Production"), leaf_key)
    data = {"appAppleId": 1234, "bundleId": BUNDLE, "environment": "Production",
            "signedTransactionInfo": nested_transaction, "signedRenewalInfo": nested_renewal,
            "status": 1}
    case("a production notification with its nested JWS",
         compact(header, notification(data), leaf_key), "verified", method="notification",
         **production)
    case("a notification with the wrong appAppleId",
         compact(header, notification(dict(data, appAppleId=99)), leaf_key),
         "appAppleIdMismatch", method="notification", **production)
    case("a production notification without appAppleId",
         compact(header, notification({k: v for k, v in data.items() if k != "appAppleId"}),
                 leaf_key), "appAppleIdMismatch", method="notification", **production)
    case("a notification without bundleId",
         compact(header, notification({k: v for k, v in data.items() if k != "bundleId"}),
                 leaf_key), "bundleMismatch", method="notification", **production)
    case("a notification whose nested transaction has a changed signature",
         compact(header, notification(dict(data, signedTransactionInfo=nested_transaction[:-4] + (
             "AAAA" if not nested_transaction.endswith("AAAA") else "BBBB"))), leaf_key),
         "invalidSignature", method="notification", nested="data.signedTransactionInfo",
         **production)
    case("a notification whose nested renewal info is for the sandbox",
         compact(header, notification(dict(data, signedRenewalInfo=compact(
             header, renewal_info(), leaf_key))), leaf_key),
         "environmentMismatch", method="notification", nested="data.signedRenewalInfo",
         **production)
    case("a transaction is not a notification", nested_transaction, "malformed",
         method="notification", **production)
    case("a summary notification",
         compact(header, {"notificationType": "RENEWAL_EXTENSION", "subtype": "SUMMARY",
                          "summary": {"bundleId": BUNDLE, "environment": "Production",
                                      "appAppleId": 1234, "requestIdentifier": "r"},
                          "signedDate": SIGNED_DATE}, leaf_key), "verified", **production)
    case("an external purchase token notification from the sandbox",
         compact(header, {"notificationType": "EXTERNAL_PURCHASE_TOKEN",
                          "externalPurchaseToken": {"externalPurchaseId": "SANDBOX_1",
                                                    "bundleId": BUNDLE, "appAppleId": 1234},
                          "signedDate": SIGNED_DATE}, leaf_key), "verified")

    # Xcode: one self-signed certificate, trusted by the caller.
    xcode_key = key("xcode", "P-256")
    xcode = certificate("StoreKit Testing in Xcode", xcode_key, "StoreKit Testing in Xcode",
                        xcode_key, serial=60, not_before=date(2025), not_after=date(2026),
                        ca=True, path_length=0, key_usage="sign", digest=hashes.SHA256)
    xcode_header = {"alg": "ES256", "kid": "Apple_Xcode_Key", "x5c": x5c(xcode)}
    case("an Xcode payload, its certificate trusted",
         compact(xcode_header, transaction(environment="Xcode"), xcode_key), "verified",
         roots=["xcode"], environment="Xcode")
    case("an Xcode-signed payload that says Sandbox",
         compact(xcode_header, transaction(), xcode_key), "environmentMismatch",
         roots=["xcode"], environment=None)
    case("an Xcode payload, its certificate not trusted",
         compact(xcode_header, transaction(environment="Xcode"), xcode_key),
         "invalidChainLength", environment="Xcode")

    roots = {
        "root": root, "p256-root": p256_root, "xcode": xcode,
        "root-not-ca": variant_root(ca=False), "root-path-0": variant_root(path_length=0),
        "root-no-constraints": variant_root(ca=None),
        "root-expired": variant_root(not_after=date(2025, 3)),
        "root-crl-only": variant_root(key_usage="crl-only"),
        "root-ed25519": variant_root(subject_key=ed25519_root_key),
        "root-secp256k1": variant_root(subject_key=secp256k1_root_key, digest=hashes.SHA256),
        "root-1969": variant_root(not_before=date(1969)),
    }
    for entry in cases:
        entry.setdefault("roots", ["root"])
        entry.setdefault("bundleId", BUNDLE)
        entry.setdefault("environment", "Sandbox")
    output = {
        "generator": "Tests/EntitlementsVerificationTests/Generated/generate.py",
        "signedDate": SIGNED_DATE,
        "roots": {name: base64.b64encode(der).decode() for name, der in roots.items()},
        # SHA-256 of each root's DER as hashlib computes it: TrustedRoot(fingerprint:).
        "fingerprints": {name: hashlib.sha256(der).hexdigest().upper()
                         for name, der in roots.items()},
        "cases": cases,
    }
    with open(os.path.join(HERE, "jws-cases.json"), "w") as file:
        json.dump(output, file, indent=1)
        file.write("\n")
    with open(os.path.join(HERE, "root.der"), "wb") as file:
        file.write(root)

    # Property test: random keys, random messages, their signatures.
    seed = 20251125
    rng = random.Random(seed)
    keys = []
    for index in range(50):
        curve = "P-384" if index in (9, 29, 49) else "P-256"
        private = key(f"property-{seed}-{index}", curve)
        digest, size = (hashes.SHA256, 32) if curve == "P-256" else (hashes.SHA384, 48)
        messages = []
        for _ in range(1):
            message = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 17)))
            messages.append({"message": message.hex(),
                             "signature": es_sign(private, message, digest, size).hex()})
        public = private.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        keys.append({"curve": curve, "publicKey": public.hex(), "messages": messages})
    with open(os.path.join(HERE, "signatures.json"), "w") as file:
        json.dump({"seed": seed, "keys": keys}, file, indent=1)
        file.write("\n")
    print(f"wrote {len(cases)} JWS cases and {len(keys)} keys")


if __name__ == "__main__":
    main()
