#!/usr/bin/env python3
"""The peer of `entitlements verify` in the benchmark: Apple's App Store Server Library for
Python (pip install app-store-server-library) verifying a file of v2 notifications, one
compact JWS per line, as a backend using it would: each notification with
verify_and_decode_notification, then its nested signedTransactionInfo and signedRenewalInfo.

The trusted root is Apple Root CA - G3, taken from the first chain whose last certificate has
its SHA-256 fingerprint (the library takes the root's bytes; this project pins it by
fingerprint). The expected bundle id, environment and app id are read from each notification's
payload before it is verified, as a backend serving several apps knows them.

Usage: verify_peer.py FILE     prints "N verified, M failed"
"""
import base64
import hashlib
import json
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

APPLE_ROOT_CA_G3 = "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"


def part(jws, index):
    text = jws.split(".")[index]
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def main(path):
    with open(path) as file:
        lines = [line.strip() for line in file if line.strip()]
    root = None
    for line in lines:
        try:
            candidate = base64.b64decode(json.loads(part(line, 0))["x5c"][-1])
        except Exception:
            continue
        if hashlib.sha256(candidate).hexdigest() == APPLE_ROOT_CA_G3:
            root = candidate
            break
    verifiers = {}
    verified = failed = 0
    for line in lines:
        try:
            data = json.loads(part(line, 1)).get("data", {})
            key = (data.get("bundleId"), data.get("environment", "Production"), data.get("appAppleId"))
            if key not in verifiers:
                verifiers[key] = SignedDataVerifier([root], False, Environment(key[1]), key[0], key[2])
            verifier = verifiers[key]
            notification = verifier.verify_and_decode_notification(line)
            verified += 1
        except Exception:
            failed += 1
            continue
        nested = notification.data
        for jws, verify in [
            (nested.signedTransactionInfo if nested else None, verifier.verify_and_decode_signed_transaction),
            (nested.signedRenewalInfo if nested else None, verifier.verify_and_decode_renewal_info),
        ]:
            if jws is None:
                continue
            try:
                verify(jws)
                verified += 1
            except Exception:
                failed += 1
    print(f"{verified} verified, {failed} failed")


if __name__ == "__main__":
    main(sys.argv[1])
