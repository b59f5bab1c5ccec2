import Entitlements
import Testing

@testable import EntitlementsScenarios

/// The streaming writer of `explain --json` and `evaluate`: valid JSON, escapes, empty
/// containers, indentation.
@Suite("JSON writer")
struct JSONWriterTests {
  static func written(indent: Int, _ write: (inout JSONWriter) -> Void) -> String {
    var writer = JSONWriter(indent: indent)
    write(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  @Test func oneLine() {
    let text = Self.written(indent: 0) { writer in
      writer.beginObject()
      writer.key("a")
      writer.beginArray()
      writer.integer(1)
      writer.string("x\"y\\\n\u{1}")
      writer.beginObject()
      writer.endObject()
      writer.beginArray()
      writer.endArray()
      writer.endArray()
      writer.key("b")
      writer.null()
      writer.endObject()
    }
    #expect(text == #"{"a":[1,"x\"y\\\n\u0001",{},[]],"b":null}"#)
  }

  @Test func indented() {
    let text = Self.written(indent: 2) { writer in
      writer.beginObject()
      writer.key("a")
      writer.beginArray()
      writer.bool(true)
      writer.endArray()
      writer.key("e")
      writer.beginArray()
      writer.endArray()
      writer.endObject()
    }
    #expect(text == "{\n  \"a\": [\n    true\n  ],\n  \"e\": []\n}")
  }

  /// An instant is written in place as its `description` reads, quoted: whole seconds,
  /// milliseconds, years before 1000 and before year 1, and the first instant; the end of
  /// time is `null`.
  @Test(arguments: [
    0, 1_487_577_600_123, 1_487_577_600_000, 1_767_225_599_999, -62_135_596_800_001,
    -30_610_224_000_000, 253_402_300_799_999, Int64.min, Int64.max,
  ])
  func anInstantIsWrittenAsItsDescription(milliseconds: Int64) {
    let instant = Instant(millisecondsSince1970: milliseconds)
    let text = Self.written(indent: 0) { writer in
      writer.beginArray()
      writer.instant(instant)
      writer.instant(instant)
      writer.endArray()
    }
    let one = instant.isDistantFuture ? "null" : "\"\(instant.description)\""
    #expect(text == "[\(one),\(one)]")
  }
}
