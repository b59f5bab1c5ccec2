#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus: one small document of every kind the reader accepts
(SPEC section 10), made here, in Apple's shapes, and the documents of the shipped scenarios.
JWS made here have a fixed fake signature: the reader decodes them without verifying, which is
what the reading target exercises.

    Fuzz/make-seeds.py OUTPUT_FOLDER
"""
import base64
import json
import pathlib
import sys

MONTH = 30 * 86_400_000
START = 1_717_200_000_000


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jws(payload):
    header = {"alg": "ES256", "x5c": ["MIIB", "MIIC", "MIID"]}
    return ".".join([b64(json.dumps(header).encode()), b64(json.dumps(payload).encode()),
                     b64(bytes(64))])


def transaction(number, original, start, **extra):
    value = {"transactionId": str(2000000512340000 + number),
             "originalTransactionId": str(2000000512340000 + original),
             "webOrderLineItemId": str(2000000088120000 + number),
             "bundleId": "com.example.app", "productId": "com.example.premium.monthly",
             "subscriptionGroupIdentifier": "21450123", "purchaseDate": start,
             "originalPurchaseDate": START, "expiresDate": start + MONTH, "quantity": 1,
             "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
             "signedDate": start + 1000, "environment": "Sandbox",
             "transactionReason": "RENEWAL" if number else "PURCHASE", "storefront": "USA"}
    value.update(extra)
    return value


def renewal(original, **extra):
    value = {"originalTransactionId": str(2000000512340000 + original),
             "autoRenewProductId": "com.example.premium.monthly",
             "productId": "com.example.premium.monthly", "autoRenewStatus": 0,
             "expirationIntent": 1, "isInBillingRetryPeriod": False,
             "signedDate": START + 3 * MONTH, "environment": "Sandbox"}
    value.update(extra)
    return value


def notification(kind, subtype, number, status=1):
    return {"notificationType": kind, "subtype": subtype,
            "notificationUUID": "7a4f1c52-0d8e-4c7b-9f63-5b8c2d1e%04d" % number,
            "version": "2.0", "signedDate": START + number * MONTH + 2000,
            "data": {"bundleId": "com.example.app", "environment": "Sandbox", "status": status,
                     "signedTransactionInfo": jws(transaction(number, 0, START + number * MONTH)),
                     "signedRenewalInfo": jws(renewal(0))}}


def receipt_entry(number, start, **extra):
    value = {"quantity": "1", "product_id": "com.example.premium.monthly",
             "transaction_id": str(1000000512340000 + number),
             "original_transaction_id": "1000000512340000",
             "purchase_date_ms": str(start), "expires_date_ms": str(start + MONTH),
             "purchase_date": "2024-06-01 00:00:00 Etc/GMT",
             "web_order_line_item_id": str(1000000088120000 + number),
             "is_trial_period": "false", "is_in_intro_offer_period": "false"}
    value.update(extra)
    return value


def seeds():
    entries = [receipt_entry(n, START + n * MONTH) for n in range(3)]
    entries[1]["cancellation_date_ms"] = str(START + MONTH + 86_400_000)
    pending = [{"auto_renew_product_id": "com.example.premium.monthly",
                "original_transaction_id": "1000000512340000", "auto_renew_status": "0",
                "expiration_intent": "1", "is_in_billing_retry_period": "0"}]
    receipt = {"status": 0, "environment": "Sandbox",
               "receipt": {"receipt_type": "ProductionSandbox", "bundle_id": "com.example.app",
                           "receipt_creation_date_ms": str(START + 3 * MONTH),
                           "in_app": list(reversed(entries))},
               "latest_receipt_info": entries, "pending_renewal_info": pending}
    payloads = [transaction(n, 0, START + n * MONTH) for n in range(3)]
    yield "verify-receipt.json", receipt
    yield "verify-receipt-21007.json", {"status": 21007, "receipt": {"in_app": []}}
    yield "verify-receipt-21006.json", dict(receipt, status=21006)
    yield "notification-v1.json", {"notification_type": "DID_RENEW", "environment": "Sandbox",
                                   "auto_renew_status": "true",
                                   "unified_receipt": {"status": 0, "environment": "Sandbox",
                                                       "latest_receipt_info": entries,
                                                       "pending_renewal_info": pending}}
    yield "notification-v2-decoded.json", notification("DID_RENEW", None, 1)
    yield "notification-v2-expired.json", notification("EXPIRED", "VOLUNTARY", 2, status=2)
    yield "notification-v2-grace.json", notification("DID_FAIL_TO_RENEW", "GRACE_PERIOD", 2, 4)
    yield "notification-v2-refund.json", notification("REFUND", None, 1, status=5)
    yield "notification-v2-body.json", {"signedPayload": jws(notification("SUBSCRIBED",
                                                                          "INITIAL_BUY", 0))}
    yield "transaction.json", payloads[0]
    yield "renewal-info.json", renewal(0)
    yield "transaction-history.json", {"signedTransactions": [jws(p) for p in payloads],
                                       "hasMore": False, "revision": "abc",
                                       "bundleId": "com.example.app", "environment": "Sandbox"}
    yield "subscription-statuses.json", {
        "environment": "Sandbox", "bundleId": "com.example.app",
        "data": [{"subscriptionGroupIdentifier": "21450123", "lastTransactions": [
            {"status": 2, "originalTransactionId": "2000000512340000",
             "signedTransactionInfo": jws(payloads[-1]), "signedRenewalInfo": jws(renewal(0))}]}]}
    yield "notification-history.json", {"hasMore": False, "paginationToken": "x",
                                        "notificationHistory": [
                                            {"signedPayload": jws(notification("DID_RENEW", None, n))}
                                            for n in range(2)]}
    yield "array-of-documents.json", [payloads[0], jws(payloads[1]), renewal(0)]
    yield "jws-lines.txt", "\n".join(jws(p) for p in payloads) + "\n"
    # The documents of the shipped scenarios (Apple's 2026 model among them), decoded, and
    # those of the 2026 model signed by the test chain.
    repository = pathlib.Path(__file__).resolve().parent.parent
    for path in sorted((repository / "Scenarios").glob("*.json")):
        scenario = json.loads(path.read_text())
        if not isinstance(scenario, dict):
            continue
        for number, document in enumerate(scenario.get("documents", [])):
            yield "scenario-%s-%d.json" % (path.stem, number), document
    signed = repository / "Tests/EntitlementsCLITests/Generated/apple-2026-signed.json"
    for name, documents in sorted(json.loads(signed.read_text()).items()):
        for number, document in enumerate(documents):
            yield "signed-%s-%d.json" % (pathlib.Path(name).stem, number), document


def main():
    folder = pathlib.Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    for name, value in seeds():
        text = value if isinstance(value, str) else json.dumps(value, indent=1)
        (folder / name).write_text(text)
    print("seeds in %s" % folder)


if __name__ == "__main__":
    main()
