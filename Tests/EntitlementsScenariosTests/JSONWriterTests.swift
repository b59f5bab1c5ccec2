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
}
