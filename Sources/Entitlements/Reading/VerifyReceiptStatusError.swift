/// A verifyReceipt `status` other than 0, with Apple's meaning.
///
/// 21007 and 21008 mean "wrong environment": ``retryEnvironment`` says where to send the
/// receipt instead. 21006 (an expired iOS 6 style subscription receipt) still carries the
/// decoded receipt, so ``VerifyReceiptResponse`` reads it and reports the status here too.
///
/// ```swift
/// let error = VerifyReceiptStatusError(code: 21007)
/// error.retryEnvironment  // .sandbox
/// error.isRetryable       // true
/// ```
public struct VerifyReceiptStatusError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Apple's status code.
  public var code: Int

  /// Creates the error for a status code.
  ///
  /// - Parameter code: Apple's `status`.
  public init(code: Int) {
    self.code = code
  }

  /// Apple's meaning of the code.
  public var meaning: String {
    switch code {
    case 21000: "The request to the App Store was not made using the HTTP POST request method."
    case 21001: "This status code is no longer sent by the App Store."
    case 21002:
      "The data in the receipt-data property was malformed or the service experienced a "
        + "temporary issue. Try again."
    case 21003: "The receipt could not be authenticated."
    case 21004:
      "The shared secret you provided does not match the shared secret on file for your account."
    case 21005: "The receipt server was temporarily unable to provide the receipt. Try again."
    case 21006:
      "This receipt is valid but the subscription has expired; the receipt data is decoded "
        + "and returned (iOS 6 style transaction receipts for auto-renewable subscriptions)."
    case 21007:
      "This receipt is from the test environment, but it was sent to the production "
        + "environment for verification."
    case 21008:
      "This receipt is from the production environment, but it was sent to the test "
        + "environment for verification."
    case 21009: "Internal data access error. Try again later."
    case 21010: "The user account cannot be found or has been deleted."
    case 21100...21199: "Internal data access error."
    default: "Unknown status code."
    }
  }

  /// Where to send the receipt instead: `.sandbox` for 21007, `.production` for 21008.
  public var retryEnvironment: StoreEnvironment? {
    switch code {
    case 21007: .sandbox
    case 21008: .production
    default: nil
    }
  }

  /// Whether trying again later (or elsewhere) may succeed.
  public var isRetryable: Bool {
    switch code {
    case 21002, 21005, 21007, 21008, 21009, 21100...21199: true
    default: false
    }
  }

  /// What to do about it, in a few words: where to send the receipt instead, or whether trying
  /// again can help.
  public var advice: String {
    switch code {
    case 21007: "verify it against the sandbox"
    case 21008: "verify it against production"
    default: isRetryable ? "retrying later can help" : "retrying will not help"
    }
  }

  /// "status 21007: This receipt is from the test environment, … (verify it against the
  /// sandbox)".
  public var description: String { "status \(code): \(meaning) (\(advice))" }
}
