import Foundation
import Testing

@testable import Entitlements

/// Every member of every schema Apple's documents are read by has a test whose expected value
/// is written by hand: its name appears as a key in the documents of
/// `SchemaReaderTests+Fields.swift`, whose tests compare what is read with values written
/// there. A member added to a schema without such a test fails here, naming it.
@Suite("Every field of every schema has a hand-written test")
struct SchemaFieldCoverageTests {
  /// Each schema's members that are read (not those Apple writes that nothing reads).
  static func readMembers<Fields>(_ fields: [Field<Fields>]) -> [String] {
    fields.flatMap(\.members).filter {
      if case .ignored = $0.reading { return false }
      return true
    }.map(\.name)
  }

  static let schemas: [(String, [String])] = [
    ("DocumentFields", readMembers(DocumentFields.fields)),
    ("DecodedPayloadFields", readMembers(DecodedPayloadFields.fields)),
    ("CommitmentFields", readMembers(CommitmentFields.fields)),
    ("ReceiptEntryFields", readMembers(ReceiptEntryFields.fields)),
    ("PendingRenewalFields", readMembers(PendingRenewalFields.fields)),
    ("ReceiptFields", readMembers(ReceiptFields.fields)),
    ("UnifiedReceiptFields", readMembers(UnifiedReceiptFields.fields)),
    ("NotificationDataFields", readMembers(NotificationDataFields.fields)),
    ("SubscriptionGroupFields", readMembers(SubscriptionGroupFields.fields)),
    ("LastTransactionFields", readMembers(LastTransactionFields.fields)),
    ("NotificationHistoryItemFields", readMembers(NotificationHistoryItemFields.fields)),
  ]

  @Test func everyReadMemberIsAKeyOfAHandWrittenTest() throws {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let source = try String(
      contentsOf: here.appendingPathComponent("SchemaReaderTests+Fields.swift"), encoding: .utf8)
    var missing: [String] = []
    for (schema, members) in Self.schemas {
      #expect(!members.isEmpty, "\(schema) reads nothing")
      for member in members where !source.contains("\"\(member)\":") {
        missing.append("\(schema).\(member)")
      }
    }
    #expect(missing.isEmpty, "members without a hand-written test: \(missing)")
  }
}
