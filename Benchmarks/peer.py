#!/usr/bin/env python3
"""The peer of the benchmark: what a backend writes instead of the library, in Python with orjson.

Same inputs, arguments and output shape as `entitlements evaluate` and `entitlements explain
--json` for the benchmark's documents: entries merged and deduplicated by transaction id,
refunded entries dropped, entries grouped by entitlement (from the catalog), touching or
overlapping entries merged into periods, and each entitlement's status at an instant (active,
grace period, billing retry up to 60 days, expired with its reason). It does less than the
library (no upgrades, no sandbox times, no lapse causes, no windows, no diagnostics), and is
a benchmark tool, not part of the product.

    peer.py evaluate FILE --catalog FILE --at MILLISECONDS
    peer.py explain FILE --catalog FILE --at MILLISECONDS --json
"""
import sys
from datetime import datetime, timezone

import orjson

DAY = 86_400_000
REASONS = {1: "voluntary", 2: "billingError", 3: "priceIncrease", 4: "productUnavailable"}


def iso(ms):
    if ms is None:
        return None
    text = datetime.fromtimestamp(ms // 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    return text + (".%03dZ" % (ms % 1000) if ms % 1000 else "Z")


def number(value):
    return None if value is None else int(value)


def collect(document, entries, renewals):
    """Adds a document's entries (by transaction id) and renewal info (by subscription)."""
    if "latest_receipt_info" in document or "receipt" in document:
        for entry in document.get("latest_receipt_info") or document["receipt"].get("in_app", []):
            entries[entry["transaction_id"]] = (
                entry["product_id"], entry["original_transaction_id"],
                number(entry.get("purchase_date_ms")), number(entry.get("expires_date_ms")),
                entry.get("cancellation_date_ms") is not None)
        for info in document.get("pending_renewal_info", []):
            renewals[info["original_transaction_id"]] = (
                info.get("auto_renew_status") == "1", number(info.get("expiration_intent")),
                info.get("is_in_billing_retry_period") == "1",
                number(info.get("grace_period_expires_date_ms")))
    elif "transactionId" in document:
        entries[document["transactionId"]] = (
            document["productId"], document["originalTransactionId"],
            document.get("purchaseDate"), document.get("expiresDate"),
            document.get("revocationDate") is not None)
    elif "originalTransactionId" in document:
        renewals[document["originalTransactionId"]] = (
            document.get("autoRenewStatus") == 1, document.get("expirationIntent"),
            document.get("isInBillingRetryPeriod") is True,
            document.get("gracePeriodExpiresDate"))


def evaluate(entries, renewals, catalog, at):
    """Each entitlement's periods and status at `at`."""
    groups = {}
    for product, original, start, end, refunded in entries.values():
        if refunded or start is None or end is None:
            continue
        groups.setdefault(catalog.get(product, original), []).append((start, end, original))
    result = []
    for entitlement in sorted(groups):
        periods = []
        for start, end, original in sorted(groups[entitlement]):
            if periods and start <= periods[-1][1]:
                if end > periods[-1][1]:
                    periods[-1] = [periods[-1][0], end, original]
            else:
                periods.append([start, end, original])
        last = periods[-1]
        will_renew, intent, retrying, grace = renewals.get(last[2], (None, None, False, None))
        status = {"entitlement": entitlement, "entitled": False, "expiresAt": None,
                  "reason": None, "willRenew": None}
        active = [p for p in periods if p[0] <= at < p[1]]
        if active:
            status.update(state="active", entitled=True, expiresAt=iso(active[0][1]),
                          willRenew=will_renew)
        elif at < periods[0][0]:
            status.update(state="notSubscribed")
        elif grace is not None and last[1] <= at < grace:
            status.update(state="gracePeriod", entitled=True, willRenew=will_renew)
        elif retrying and last[1] <= at < last[1] + 60 * DAY:
            status.update(state="billingRetry", willRenew=will_renew)
        else:
            status.update(state="expired", reason=REASONS.get(intent, "unknown"))
        result.append((status, periods))
    return result


def arguments():
    args = sys.argv[2:]
    options = {"--catalog": None, "--at": None}
    files = []
    while args:
        argument = args.pop(0)
        if argument in options:
            options[argument] = args.pop(0)
        elif argument != "--json":
            files.append(argument)
    catalog = {}
    if options["--catalog"]:
        with open(options["--catalog"], "rb") as file:
            catalog = {p["id"]: p["entitlement"] for p in orjson.loads(file.read())["products"]}
    return files, catalog, int(options["--at"])


def main():
    files, catalog, at = arguments()
    out = sys.stdout.buffer
    if sys.argv[1] == "explain":
        entries, renewals = {}, {}
        for name in files:
            with open(name, "rb") as file:
                collect(orjson.loads(file.read()), entries, renewals)
        report = {"at": iso(at), "entitlements": [
            {"id": status["entitlement"], "status": status,
             "periods": [{"start": iso(p[0]), "end": iso(p[1])} for p in periods]}
            for status, periods in evaluate(entries, renewals, catalog, at)]}
        out.write(orjson.dumps(report, option=orjson.OPT_INDENT_2))
        out.write(b"\n")
        return
    failed = False
    with open(files[0], "rb") if files and files[0] != "-" else sys.stdin.buffer as lines:
        for number_, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                subscriber = orjson.loads(line)
                entries, renewals = {}, {}
                for document in subscriber["documents"]:
                    collect(document, entries, renewals)
                statuses = [s for s, _ in evaluate(entries, renewals, catalog, at)]
                out.write(orjson.dumps({"subscriber": subscriber["subscriber"],
                                        "entitlements": statuses, "diagnostics": 0}))
            except Exception as error:  # a bad line is reported, and the stream goes on
                failed = True
                out.write(orjson.dumps({"subscriber": None, "line": number_,
                                        "error": str(error)}))
            out.write(b"\n")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
