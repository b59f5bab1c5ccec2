#!/usr/bin/env python3
"""Writes the scenarios told by decoded notifications: Apple's 2026 subscription model
(revocation types, monthly plans with a 12-month commitment), the past as Apple said it (a
reversed refund, grace and billing retry inside an earlier lapse), tiers (an upgrade told by its
notification alone, a product unlocking two entitlements), checks as known at an instant,
their documents decoded as Apple sends them:

    python3 Scenarios/make-apple-2026-scenarios.py

Running it again rewrites the same files. Tests/EntitlementsCLITests/Generated signs the same
documents with the test chain.
"""
import datetime
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent


def ms(text):
    moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return int(moment.timestamp() * 1000)


def transaction(number, original, product, start, end, signed, environment="Production",
                ownership="PURCHASED", first=None, **extra):
    value = {"transactionId": number, "originalTransactionId": original,
             "webOrderLineItemId": str(int(number) + 500), "bundleId": "com.example.app",
             "productId": product, "purchaseDate": ms(start),
             "originalPurchaseDate": ms(first or start), "expiresDate": ms(end), "quantity": 1,
             "type": "Auto-Renewable Subscription", "inAppOwnershipType": ownership,
             "signedDate": ms(signed), "environment": environment}
    value.update(extra)
    return value


def renewal(original, product, signed, environment="Production", **extra):
    value = {"originalTransactionId": original, "autoRenewProductId": product,
             "productId": product, "autoRenewStatus": 1, "signedDate": ms(signed),
             "environment": environment}
    value.update(extra)
    return value


def notification(kind, signed, signed_transaction, signed_renewal=None, subtype=None,
                 environment="Production", uuid=None, status=None):
    value = {"notificationType": kind}
    if subtype:
        value["subtype"] = subtype
    value.update({"notificationUUID": uuid or "uuid-%s-%d" % (kind.lower(), ms(signed)),
                  "version": "2.0", "signedDate": ms(signed),
                  "data": {"bundleId": "com.example.app", "environment": environment,
                           "signedTransactionInfo": signed_transaction}})
    if signed_renewal:
        value["data"]["signedRenewalInfo"] = signed_renewal
    if status is not None:
        value["data"]["status"] = status
    return value


def monthly(product, original, first_number, ownership="PURCHASED", uuid=""):
    """December and January of a monthly subscription, from its notifications."""
    second = str(int(first_number) + 1)
    return [
        notification("SUBSCRIBED", "2025-12-01T00:00:02Z",
                     transaction(first_number, original, product, "2025-12-01", "2026-01-01",
                                 "2025-12-01", ownership=ownership),
                     renewal(original, product, "2025-12-01T00:00:02Z"), subtype="INITIAL_BUY",
                     uuid=uuid and uuid + "-1"),
        notification("DID_RENEW", "2026-01-01T00:00:02Z",
                     transaction(second, original, product, "2026-01-01", "2026-02-01",
                                 "2026-01-01", ownership=ownership, first="2025-12-01"),
                     renewal(original, product, "2026-01-01T00:00:02Z"),
                     uuid=uuid and uuid + "-2"),
    ]


def revoked(kind, revocation, product, original, number, ownership="PURCHASED", uuid=None,
            percentage=None):
    """January's renewal revoked on January 11."""
    extra = {"revocationDate": ms("2026-01-11"), "revocationReason": 0,
             "revocationType": revocation}
    if percentage is not None:
        extra["revocationPercentage"] = percentage
    return notification(kind, "2026-01-11T00:00:02Z",
                        transaction(number, original, product, "2026-01-01", "2026-02-01",
                                    "2026-01-11T00:00:01Z", ownership=ownership,
                                    first="2025-12-01", **extra), uuid=uuid)


def commitment_year(product, upfront, original, first_number):
    """Twelve monthly payments of a one-year commitment, from January 2026."""
    payments = []
    for period in range(1, 13):
        start = "2026-%02d-01" % period
        end = "2026-%02d-01" % (period + 1) if period < 12 else "2027-01-01"
        payments.append(transaction(
            str(int(first_number) + period - 1), original, product, start, end, start,
            first="2026-01-01", billingPlanType="MONTHLY",
            commitmentInfo={"billingPeriodNumber": period, "totalBillingPeriods": 12,
                            "commitmentExpiresDate": ms("2027-01-01"),
                            "commitmentPrice": 131880}))

    def info(signed, renews):
        return renewal(original, product, signed, renewalBillingPlanType="MONTHLY",
                       commitmentInfo={"commitmentAutoRenewStatus": renews,
                                       "commitmentAutoRenewProductId": upfront,
                                       "commitmentRenewalBillingPlanType": "BILLED_UPFRONT",
                                       "commitmentRenewalDate": ms("2027-01-01"),
                                       "commitmentRenewalPrice": 99990})
    return payments + [
        notification("DID_RENEW", "2026-03-01T00:00:02Z", payments[2],
                     info("2026-03-01T00:00:02Z", 1)),
        # In the eleventh month the customer turns the commitment's renewal off.
        notification("DID_CHANGE_RENEWAL_STATUS", "2026-11-20T00:00:00Z", payments[10],
                     info("2026-11-20T00:00:00Z", 0), subtype="AUTO_RENEW_DISABLED"),
        notification("DID_RENEW", "2026-12-01T00:00:02Z", payments[11],
                     info("2026-12-01T00:00:02Z", 0)),
    ]


def product(identifier, entitlement, duration="P1M"):
    return {"id": identifier, "type": "autoRenewable", "duration": duration,
            "entitlement": entitlement}


MONTHLY = "com.example.monthly"
YEARLY_MONTHLY, YEARLY = "com.example.yearly.monthly", "com.example.yearly"


def scenarios():
    original = "2000000100000001"
    yield "prorated-refund-ends-access-at-revocation", {
        "name": "Prorated refund: access ends at the revocation, the time before it stays paid for",
        "notes": "Apple's 2026 revocation types (Notifications 2.20). The January renewal is refunded pro rata on January 11 (revocationType REFUND_PRORATED, 67.742 % back): January 1 to 11 stays paid for, whatever the cancellation policy (the default voids a refund). The instant of the revocation belongs to the time after it: revoked, reason refund. The lapse it opens, to the resubscription on February 10, has cause refund.",
        "products": [product(MONTHLY, "premium")],
        "documents": monthly(MONTHLY, original, "2000000100000001") + [
            revoked("REFUND", "REFUND_PRORATED", MONTHLY, original, "2000000100000002",
                    percentage=67742),
            notification("SUBSCRIBED", "2026-02-10T00:00:02Z",
                         transaction("2000000100000003", original, MONTHLY, "2026-02-10",
                                     "2026-03-10", "2026-02-10", first="2025-12-01"),
                         renewal(original, MONTHLY, "2026-02-10T00:00:02Z"),
                         subtype="RESUBSCRIBE")],
        "expect": [
            {"periods": [{"start": "2025-12-01", "end": "2026-01-11"},
                         {"start": "2026-02-10", "end": "2026-03-10"}],
             "lapses": [{"start": "2026-01-11", "end": "2026-02-10", "cause": "refund"}]},
            {"at": "2026-01-05", "state": "active", "entitled": True, "expiresAt": "2026-01-11"},
            {"at": "2026-01-10T23:59:59.999Z", "state": "active", "entitled": True},
            {"at": "2026-01-11", "state": "revoked", "entitled": False, "reason": "refund"},
            {"at": "2026-02-01", "state": "revoked", "reason": "refund"},
            {"at": "2026-02-10", "state": "active"},
            {"changes": [
                {"at": "2025-12-01", "state": "active", "entitled": True, "reason": None},
                {"at": "2026-01-11", "state": "revoked", "entitled": False, "reason": "refund"},
                {"at": "2026-02-10", "state": "active", "entitled": True},
                {"at": "2026-03-10", "state": "expired", "reason": "unknown"}]}]}

    yield "full-refund-voids-by-default", {
        "name": "Full refund (REFUND_FULL): the policy decides, and the default voids the renewal",
        "notes": "A refund of the whole renewal, or one without a revocationType, is as it always was: with the default policy the entry is treated as never bought, so the period ends on January 1 and asking about January 5 answers revoked.",
        "products": [product(MONTHLY, "premium")],
        "documents": monthly(MONTHLY, original, "2000000100000001") + [
            revoked("REFUND", "REFUND_FULL", MONTHLY, original, "2000000100000002",
                    percentage=100000)],
        "expect": [
            {"periods": [{"start": "2025-12-01", "end": "2026-01-01"}]},
            {"at": "2025-12-31T23:59:59.999Z", "state": "active"},
            {"at": "2026-01-05", "state": "revoked", "entitled": False, "reason": "refund"},
            {"changes": [
                {"at": "2025-12-01", "state": "active"},
                {"at": "2026-01-01", "state": "revoked", "reason": "refund"}]}]}

    own = "2000000200000001"
    yield "family-revoke-ends-access-at-revocation", {
        "name": "Family Sharing stopped (FAMILY_REVOKE): access ends at the revocation, reason familySharingRevoked",
        "notes": "A family member's shared subscription is revoked on January 11 when the organiser stops sharing (REVOKE, revocationType FAMILY_REVOKE). The time before it was the family's: access ends on January 11 whatever the cancellation policy, and after it the status is revoked with reason familySharingRevoked. The member's own purchase on February 10 ends the lapse, whose cause is familySharingRevoked.",
        "policy": {"cancellation": "voidEntirely"},
        "products": [product(MONTHLY, "premium")],
        "documents": monthly(MONTHLY, original, "2000000100000001", "FAMILY_SHARED") + [
            revoked("REVOKE", "FAMILY_REVOKE", MONTHLY, original, "2000000100000002",
                    "FAMILY_SHARED"),
            # The family member then buys it for themselves, in their own subscription.
            notification("SUBSCRIBED", "2026-02-10T00:00:02Z",
                         transaction(own, own, MONTHLY, "2026-02-10", "2026-03-10",
                                     "2026-02-10"),
                         renewal(own, MONTHLY, "2026-02-10T00:00:02Z"), subtype="INITIAL_BUY")],
        "expect": [
            {"periods": [{"start": "2025-12-01", "end": "2026-01-11"},
                         {"start": "2026-02-10", "end": "2026-03-10"}],
             "lapses": [{"start": "2026-01-11", "end": "2026-02-10",
                         "cause": "familySharingRevoked"}]},
            {"at": "2026-01-10T23:59:59.999Z", "state": "active", "entitled": True},
            {"at": "2026-01-11", "state": "revoked", "entitled": False,
             "reason": "familySharingRevoked"},
            {"at": "2026-02-10", "state": "active"},
            {"changes": [
                {"at": "2025-12-01", "state": "active"},
                {"at": "2026-01-11", "state": "revoked", "reason": "familySharingRevoked"},
                {"at": "2026-02-10", "state": "active"},
                {"at": "2026-03-10", "state": "expired", "reason": "unknown"}]}]}

    products, documents, expect = [], [], []
    for index, (revocation, kind, entitlement, percentage) in enumerate([
            ("REFUND_FULL", "REFUND", "full", 100000),
            ("REFUND_PRORATED", "REFUND", "prorated", 67742),
            ("FAMILY_REVOKE", "REVOKE", "family", None)]):
        identifier = "com.example.%s.monthly" % entitlement
        subscription = "20000003000000%d1" % index
        second = "20000003000000%d2" % index
        ownership = "FAMILY_SHARED" if entitlement == "family" else "PURCHASED"
        products.append(product(identifier, entitlement))
        months = monthly(identifier, subscription, subscription, ownership,
                         uuid="uuid-" + entitlement)
        # Renewal turned off in January: after the restored month, the subscription expires.
        months[1]["data"]["signedRenewalInfo"]["autoRenewStatus"] = 0
        documents += months + [
            revoked(kind, revocation, identifier, subscription, second, ownership,
                    uuid="uuid-%s-3" % entitlement, percentage=percentage),
            notification("REFUND_REVERSED", "2026-01-20T00:00:02Z",
                         transaction(second, subscription, identifier, "2026-01-01",
                                     "2026-02-01", "2026-01-20T00:00:01Z", ownership=ownership,
                                     first="2025-12-01"),
                         uuid="uuid-%s-4" % entitlement)]
        reason = "familySharingRevoked" if entitlement == "family" else "refund"
        expect += [
            {"entitlement": entitlement,
             "periods": [{"start": "2025-12-01", "end": "2026-02-01"}]},
            {"entitlement": entitlement, "at": "2026-01-10T23:59:59.999Z", "state": "active"},
            {"entitlement": entitlement, "at": "2026-01-15", "state": "revoked",
             "entitled": False, "reason": reason},
            {"entitlement": entitlement, "at": "2026-01-20T00:00:01.999Z",
             "state": "revoked"},
            {"entitlement": entitlement, "at": "2026-01-20T00:00:02Z", "state": "active",
             "entitled": True, "expiresAt": "2026-02-01"},
            {"entitlement": entitlement, "at": "2026-02-01", "state": "expired",
             "reason": "voluntary"},
            {"entitlement": entitlement, "changes": [
                {"at": "2025-12-01", "state": "active"},
                {"at": "2026-01-11", "state": "revoked", "reason": reason},
                {"at": "2026-01-20T00:00:02Z", "state": "active"},
                {"at": "2026-02-01", "state": "expired", "reason": "voluntary"}]}]
    yield "refund-reversed-restores-every-revocation-type", {
        "name": "REFUND_REVERSED restores the renewal, whatever the revocation's type",
        "notes": "Three subscriptions, one per revocation type (full refund, prorated refund, family revocation), each revoked on January 11 and reversed on January 20 (REFUND_REVERSED, signed at 00:00:02, carries the transaction without its revocation). The reversal is newer, so the renewal covers its whole month again: the period runs unbroken to February 1. Between the refund and its reversal, the status is revoked, as Apple said then (its data.status was 5); from the reversal, active again; expired (auto-renew was off) from February 1.",
        "products": products, "documents": documents, "expect": expect}

    yield "commitment-twelve-payments-renewal-off", {
        "name": "Monthly plan with a 12-month commitment: twelve payments, then nothing renews",
        "notes": "Apple's 2026 billing plan (App Store Server API 1.21): a one-year product paid in twelve monthly transactions, each with its commitmentInfo. Each payment covers its own month, so the months join into one period. The customer turns the commitment's renewal off in November: billing goes on through the twelfth payment (autoRenewStatus stays 1), and the period they make will not renew (willRenew false, asked at any instant of it, as the newest evidence says), after which the subscription is expired with reason voluntary.",
        "products": [product(YEARLY_MONTHLY, "premium", "P1Y"),
                     product(YEARLY, "premium", "P1Y")],
        "documents": commitment_year(YEARLY_MONTHLY, YEARLY, "2000000400000001",
                                     "2000000400000001"),
        "expect": [
            {"periods": [{"start": "2026-01-01", "end": "2027-01-01"}]},
            {"at": "2026-03-15", "state": "active", "expiresAt": "2027-01-01",
             "commitment": {"billingPeriod": 3, "totalBillingPeriods": 12,
                            "endsAt": "2027-01-01"}},
            {"at": "2026-11-25", "state": "active", "willRenew": False,
             "commitment": {"billingPeriod": 11, "willRenew": False, "renewsInto": YEARLY}},
            {"at": "2026-12-15", "state": "active", "willRenew": False,
             "commitment": {"billingPeriod": 12, "totalBillingPeriods": 12,
                            "willRenew": False}},
            {"at": "2026-12-31T23:59:59.999Z", "state": "active", "entitled": True},
            {"at": "2027-01-01", "state": "expired", "entitled": False,
             "reason": "voluntary"}]}

    subscription = "2000000500000001"
    start, five = ms("2026-04-01T10:00:00Z"), 300_000
    payments = []
    for period in (1, 2, 3):
        payment = transaction(
            str(2000000500000000 + period), subscription, YEARLY_MONTHLY,
            "2026-04-01T10:00:00Z", "2026-04-01T10:05:00Z", "2026-04-01T10:00:00Z",
            environment="Sandbox", billingPlanType="MONTHLY",
            commitmentInfo={"billingPeriodNumber": period, "totalBillingPeriods": 12,
                            "commitmentExpiresDate": start + 12 * five})
        payment["purchaseDate"] = start + (period - 1) * five
        payment["expiresDate"] = start + period * five
        payment["signedDate"] = start + (period - 1) * five
        payments.append(payment)
    failure = notification(
        "DID_FAIL_TO_RENEW", "2026-04-01T10:15:01Z", payments[2],
        renewal(subscription, YEARLY_MONTHLY, "2026-04-01T10:15:01Z", environment="Sandbox",
                isInBillingRetryPeriod=True, expirationIntent=2,
                commitmentInfo={"commitmentAutoRenewStatus": 1,
                                "commitmentAutoRenewProductId": YEARLY}),
        environment="Sandbox")
    yield "sandbox-commitment-billing-retry-by-the-month", {
        "name": "Sandbox: a commitment's billing period is a month, so its windows are a month's",
        "notes": "In the sandbox a month lasts 5 minutes and a year an hour. A monthly plan with a 12-month commitment is a one-year product (P1Y in the catalog), but each payment covers a month: its windows are scaled by the month's rate, not the year's. The third payment fails; billing retry lasts 60 production days scaled as a month is (5 minutes for 30 days: 10 minutes), not as a year is (an hour for 365 days: about 9 minutes 52 seconds).",
        "products": [product(YEARLY_MONTHLY, "premium", "P1Y")],
        "documents": payments + [failure],
        "expect": [
            {"periods": [{"start": "2026-04-01T10:00:00Z", "end": "2026-04-01T10:15:00Z"}]},
            {"at": "2026-04-01T10:12:00Z", "state": "active",
             "commitment": {"billingPeriod": 3, "totalBillingPeriods": 12}},
            {"at": "2026-04-01T10:16:00Z", "state": "billingRetry", "entitled": False,
             "retryEndsAt": "2026-04-01T10:25:00Z"}]}

    # Every new kind in one history: three entitlements, folded together.
    family = "com.example.family.monthly"
    yield "apple-2026-model-together", {
        "name": "Apple's 2026 model in one history: a prorated refund, a family revocation, a commitment",
        "notes": "The documents of three subscriptions of one customer, each of a kind Apple added in 2026, folded into one record: each entitlement answers as it does alone.",
        "products": [product(MONTHLY, "premium"), product(family, "family"),
                     product(YEARLY_MONTHLY, "pro", "P1Y"), product(YEARLY, "pro", "P1Y")],
        "documents":
            monthly(MONTHLY, original, "2000000100000001", uuid="uuid-premium")
            + [revoked("REFUND", "REFUND_PRORATED", MONTHLY, original, "2000000100000002",
                       percentage=67742, uuid="uuid-premium-3")]
            + monthly(family, "2000000600000001", "2000000600000001", "FAMILY_SHARED",
                      uuid="uuid-family")
            + [revoked("REVOKE", "FAMILY_REVOKE", family, "2000000600000001",
                       "2000000600000002", "FAMILY_SHARED", uuid="uuid-family-3")]
            + commitment_year(YEARLY_MONTHLY, YEARLY, "2000000400000001", "2000000400000001"),
        "expect": [
            {"entitlement": "premium",
             "periods": [{"start": "2025-12-01", "end": "2026-01-11"}]},
            {"entitlement": "premium", "at": "2026-01-11", "state": "revoked",
             "reason": "refund"},
            {"entitlement": "family",
             "periods": [{"start": "2025-12-01", "end": "2026-01-11"}]},
            {"entitlement": "family", "at": "2026-01-11", "state": "revoked",
             "reason": "familySharingRevoked"},
            {"entitlement": "pro", "periods": [{"start": "2026-01-01", "end": "2027-01-01"}]},
            {"entitlement": "pro", "at": "2026-12-15", "willRenew": False,
             "commitment": {"billingPeriod": 12, "willRenew": False}},
            {"entitlement": "pro", "at": "2027-01-01", "state": "expired",
             "reason": "voluntary"},
            {"entitlement": "premium", "changes": [
                {"at": "2025-12-01", "state": "active"},
                {"at": "2026-01-11", "state": "revoked", "reason": "refund"}]},
            {"entitlement": "family", "changes": [
                {"at": "2025-12-01", "state": "active"},
                {"at": "2026-01-11", "state": "revoked", "reason": "familySharingRevoked"}]},
            {"entitlement": "pro", "changes": [
                {"at": "2026-01-01", "state": "active"},
                {"at": "2027-01-01", "state": "expired", "reason": "voluntary"}]}]}

    # Inside an earlier lapse, what Apple said then (SPEC §5): three monthly subscriptions,
    # each failing to renew on February 1 and told by its notifications alone.
    def failing(entitlement, original, fail, recovery=None, stop=None):
        identifier = "com.example.%s.monthly" % entitlement
        uuid = "uuid-" + entitlement
        documents = [
            notification("SUBSCRIBED", "2026-01-01T00:00:02Z",
                         transaction(original, original, identifier, "2026-01-01",
                                     "2026-02-01", "2026-01-01"),
                         renewal(original, identifier, "2026-01-01T00:00:02Z"),
                         subtype="INITIAL_BUY", uuid=uuid + "-1", status=1),
            notification("DID_FAIL_TO_RENEW", "2026-02-01T00:00:05Z",
                         transaction(original, original, identifier, "2026-01-01",
                                     "2026-02-01", "2026-01-01"),
                         renewal(original, identifier, "2026-02-01T00:00:05Z",
                                 isInBillingRetryPeriod=True, expirationIntent=2, **fail),
                         subtype="GRACE_PERIOD" if fail else None, uuid=uuid + "-2",
                         status=4 if fail else 3)]
        if stop:
            documents.append(notification(
                "EXPIRED", stop,
                transaction(original, original, identifier, "2026-01-01", "2026-02-01",
                            "2026-01-01"),
                renewal(original, identifier, stop, isInBillingRetryPeriod=False,
                        expirationIntent=2),
                subtype="BILLING_RETRY", uuid=uuid + "-3", status=2))
        if recovery:
            number = str(int(original) + 1)
            subtype = "RESUBSCRIBE" if stop else "BILLING_RECOVERY"
            kind = "SUBSCRIBED" if stop else "DID_RENEW"
            end = "2026-%02d-%s" % (int(recovery[5:7]) + 1, recovery[8:])
            documents.append(notification(
                kind, recovery,
                transaction(number, original, identifier, recovery, end, recovery,
                            first="2026-01-01"),
                renewal(original, identifier, recovery),
                subtype=subtype, uuid=uuid + "-4", status=1))
        return product(identifier, entitlement), documents

    retry_product, retry_documents = failing(
        "retry", "2000000700000001", {}, recovery="2026-02-10T08:00:00Z")
    grace_product, grace_documents = failing(
        "grace", "2000000800000001", {"gracePeriodExpiresDate": ms("2026-02-17")},
        recovery="2026-02-20T08:00:00Z")
    stopped_product, stopped_documents = failing(
        "stopped", "2000000900000001", {}, stop="2026-04-02T00:00:03Z",
        recovery="2026-04-20T08:00:00Z")
    yield "inside-an-earlier-lapse-as-apple-said-it", {
        "name": "Inside an earlier lapse, the status Apple gave then: grace, billing retry, and a retry that stopped",
        "notes": "Three monthly subscriptions, each failing to renew on February 1 and told by v2 notifications alone. 'retry': DID_FAIL_TO_RENEW (renewal info isInBillingRetryPeriod 1; Apple's data.status 3), then DID_RENEW / BILLING_RECOVERY on February 10: billing retry from the expiry to the recovery, the lapse a billing error. 'grace': DID_FAIL_TO_RENEW / GRACE_PERIOD with gracePeriodExpiresDate February 17 (data.status 4), recovered on February 20: grace to February 17 (access kept), billing retry after. 'stopped': the retry ran to its 60 days; EXPIRED / BILLING_RETRY signed on April 2 (data.status 2), resubscribed on April 20: billing retry to April 2, expired (billingRetryExhausted) from then. The status inside each lapse is what Apple said at that instant; the lapse's cause stays what the whole lapse shows.",
        "products": [retry_product, grace_product, stopped_product],
        "documents": retry_documents + grace_documents + stopped_documents,
        "expect": [
            {"entitlement": "retry", "lapses": [
                {"start": "2026-02-01", "end": "2026-02-10T08:00:00Z", "cause": "billingError"}]},
            {"entitlement": "retry", "at": "2026-01-31T23:59:59.999Z", "state": "active"},
            {"entitlement": "retry", "at": "2026-02-01", "state": "billingRetry",
             "entitled": False, "retryEndsAt": "2026-04-02"},
            {"entitlement": "retry", "at": "2026-02-10T07:59:59.999Z", "state": "billingRetry"},
            {"entitlement": "retry", "at": "2026-02-10T08:00:00Z", "state": "active",
             "expiresAt": "2026-03-10T08:00:00Z"},
            {"entitlement": "retry", "changes": [
                {"at": "2026-01-01", "state": "active"},
                {"at": "2026-02-01", "state": "billingRetry", "entitled": False},
                {"at": "2026-02-10T08:00:00Z", "state": "active"},
                {"at": "2026-03-10T08:00:00Z", "state": "expired", "reason": "unknown"}]},
            {"entitlement": "grace", "at": "2026-02-01", "state": "gracePeriod",
             "entitled": True, "gracePeriodEndsAt": "2026-02-17", "retryEndsAt": "2026-04-02"},
            {"entitlement": "grace", "at": "2026-02-16T23:59:59.999Z", "state": "gracePeriod"},
            {"entitlement": "grace", "at": "2026-02-17", "state": "billingRetry",
             "entitled": False},
            {"entitlement": "grace", "changes": [
                {"at": "2026-01-01", "state": "active"},
                {"at": "2026-02-01", "state": "gracePeriod", "entitled": True},
                {"at": "2026-02-17", "state": "billingRetry", "entitled": False},
                {"at": "2026-02-20T08:00:00Z", "state": "active"},
                {"at": "2026-03-20T08:00:00Z", "state": "expired", "reason": "unknown"}]},
            {"entitlement": "stopped", "at": "2026-03-01", "state": "billingRetry"},
            {"entitlement": "stopped", "at": "2026-04-02T00:00:02.999Z", "state": "expired",
             "reason": "billingRetryExhausted"},
            {"entitlement": "stopped", "at": "2026-04-10", "state": "expired",
             "reason": "billingRetryExhausted"},
            {"entitlement": "stopped", "changes": [
                {"at": "2026-01-01", "state": "active"},
                {"at": "2026-02-01", "state": "billingRetry"},
                {"at": "2026-04-02", "state": "expired", "reason": "billingRetryExhausted"},
                {"at": "2026-04-20T08:00:00Z", "state": "active"},
                {"at": "2026-05-20T08:00:00Z", "state": "expired", "reason": "unknown"}]}]}

    # Tiers (issue 47, item 3): an upgrade within a subscription group, told by the
    # DID_CHANGE_RENEWAL_PREF / UPGRADE notification alone (Apple does not resend the old plan).
    basic, premium = "com.example.basic.monthly", "com.example.premium.monthly"

    def upgraded(original):
        return [
            notification("SUBSCRIBED", "2026-01-01T00:00:02Z",
                         transaction(original, original, basic, "2026-01-01", "2026-02-01",
                                     "2026-01-01", subscriptionGroupIdentifier="21000001"),
                         renewal(original, basic, "2026-01-01T00:00:02Z"),
                         subtype="INITIAL_BUY", uuid="uuid-tier-%s-1" % original, status=1),
            notification("DID_CHANGE_RENEWAL_PREF", "2026-01-15T12:00:02Z",
                         transaction(str(int(original) + 1), original, premium,
                                     "2026-01-15T12:00:00Z", "2026-02-15T12:00:00Z",
                                     "2026-01-15T12:00:00Z", first="2026-01-01",
                                     subscriptionGroupIdentifier="21000001"),
                         renewal(original, premium, "2026-01-15T12:00:02Z"),
                         subtype="UPGRADE", uuid="uuid-tier-%s-2" % original, status=1)]

    yield "upgrade-to-a-tier-that-includes-the-old-one", {
        "name": "Upgrade from basic to premium, which includes basic, from the notification alone",
        "notes": "The catalog's premium product unlocks two entitlements, premium and basic (\"premium includes basic\"). The customer upgrades on January 15 within the subscription group; only the DID_CHANGE_RENEWAL_PREF / UPGRADE notification tells it (its transaction is the premium one; Apple does not resend the basic one). The basic plan ends at the upgrade, and basic goes on unbroken through premium: one period to February 15, given by premium from the upgrade, renewing into premium. premium starts at the upgrade. No diagnostic: the upgrade has its successor.",
        "products": [product(basic, "basic"),
                     {"id": premium, "type": "autoRenewable", "duration": "P1M",
                      "entitlements": ["premium", "basic"]}],
        "documents": upgraded("2000001000000001"),
        "expect": [
            {"entitlement": "basic",
             "periods": [{"start": "2026-01-01", "end": "2026-02-15T12:00:00Z"}]},
            {"entitlement": "basic", "at": "2026-01-20", "state": "active",
             "expiresAt": "2026-02-15T12:00:00Z", "willRenew": True, "nextProductId": premium},
            {"entitlement": "premium",
             "periods": [{"start": "2026-01-15T12:00:00Z", "end": "2026-02-15T12:00:00Z"}]},
            {"entitlement": "premium", "at": "2026-01-15T11:59:59.999Z",
             "state": "notSubscribed"},
            {"entitlement": "premium", "at": "2026-01-20", "state": "active", "willRenew": True},
            {"diagnostics": 0}]}

    yield "upgrade-ends-the-old-plan-from-the-notification-alone", {
        "name": "Upgrade from basic to a premium that does not include it: basic ends at the upgrade",
        "notes": "The same upgrade on January 15, told by the DID_CHANGE_RENEWAL_PREF / UPGRADE notification alone, but premium unlocks only premium. The basic plan ends at the upgrade all the same (Apple's upgrade takes effect at once), not at its own expiry on February 1, and it will not renew: basic is expired from the upgrade. premium is active from it.",
        "products": [product(basic, "basic"), product(premium, "premium")],
        "documents": upgraded("2000001100000001"),
        "expect": [
            {"entitlement": "basic",
             "periods": [{"start": "2026-01-01", "end": "2026-01-15T12:00:00Z"}]},
            {"entitlement": "basic", "at": "2026-01-15T11:59:59.999Z", "state": "active",
             "expiresAt": "2026-01-15T12:00:00Z"},
            {"entitlement": "basic", "at": "2026-01-20", "state": "expired",
             "entitled": False},
            {"entitlement": "premium",
             "periods": [{"start": "2026-01-15T12:00:00Z", "end": "2026-02-15T12:00:00Z"}]},
            {"entitlement": "premium", "at": "2026-01-20", "state": "active", "willRenew": True,
             "nextProductId": premium},
            {"diagnostics": 0}]}

    # As known at (issue 47, item 2): what a backend would have answered at each instant,
    # from the notifications signed by then.
    original, product_id = "2000001200000001", MONTHLY
    renewal_transaction = transaction("2000001200000002", original, product_id, "2026-02-01",
                                      "2026-03-01", "2026-02-01", first="2026-01-01")
    refunded_transaction = dict(renewal_transaction, signedDate=ms("2026-02-10T00:00:01Z"),
                                revocationDate=ms("2026-02-10"), revocationReason=1,
                                revocationType="REFUND_FULL", revocationPercentage=100000)
    yield "as-known-at-each-instant", {
        "name": "What a backend would have answered then: each check as known at its instant",
        "notes": "A monthly plan told by its notifications: bought January 1, renewed February 1, renewal turned off on February 5 (DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED), the February renewal refunded in full on February 10 (REFUND). In hindsight the full refund voids the renewal from its purchase: revoked from February 1. A check with knownAt counts only the documents signed by then: on January 15 the renewal was not yet bought (expires February 1, will renew); on February 3 it was, and would renew; on February 7 it would not; from February 10, revoked.",
        "products": [product(product_id, "premium")],
        "documents": [
            notification("SUBSCRIBED", "2026-01-01T00:00:02Z",
                         transaction(original, original, product_id, "2026-01-01", "2026-02-01",
                                     "2026-01-01"),
                         renewal(original, product_id, "2026-01-01T00:00:02Z"),
                         subtype="INITIAL_BUY", uuid="uuid-known-1", status=1),
            notification("DID_RENEW", "2026-02-01T00:00:02Z", renewal_transaction,
                         renewal(original, product_id, "2026-02-01T00:00:02Z"),
                         uuid="uuid-known-2", status=1),
            notification("DID_CHANGE_RENEWAL_STATUS", "2026-02-05T00:00:00Z",
                         renewal_transaction,
                         renewal(original, product_id, "2026-02-05T00:00:00Z",
                                 autoRenewStatus=0),
                         subtype="AUTO_RENEW_DISABLED", uuid="uuid-known-3", status=1),
            notification("REFUND", "2026-02-10T00:00:02Z", refunded_transaction,
                         uuid="uuid-known-4", status=5)],
        "expect": [
            {"at": "2026-02-03", "state": "revoked", "reason": "refund"},
            {"knownAt": "2026-01-15", "state": "active", "expiresAt": "2026-02-01",
             "willRenew": True},
            {"knownAt": "2026-01-15", "periods": [{"start": "2026-01-01", "end": "2026-02-01"}]},
            {"knownAt": "2026-02-03", "state": "active", "expiresAt": "2026-03-01",
             "willRenew": True},
            {"knownAt": "2026-02-07", "state": "active", "expiresAt": "2026-03-01",
             "willRenew": False},
            {"knownAt": "2026-02-09T23:59:59.999Z", "at": "2026-03-01", "state": "expired",
             "reason": "voluntary"},
            {"knownAt": "2026-02-10T00:00:02Z", "state": "revoked", "reason": "refund"},
            {"knownAt": "2026-02-10T00:00:01.999Z", "state": "active"}]}


def main():
    for name, scenario in scenarios():
        text = json.dumps(scenario, indent=2, ensure_ascii=False) + "\n"
        (HERE / (name + ".json")).write_text(text)
        print("wrote Scenarios/%s.json" % name)


if __name__ == "__main__":
    main()
