/// One item of Get Notification History (Apple's `NotificationHistoryResponseItem`): a v2
/// notification as the App Store sent it.
struct NotificationHistoryItemFields: AppleFields {
  var notification: ServerNotification?

  static let fields: [Field<Self>] = [
    .signedNotification("signedPayload", \.notification),
    .ignored("sendAttempts", "firstSendAttemptResult"),
  ]
}
