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

  /// Values after keys, nested, indented: an instant in place (with and without milliseconds,
  /// the first instant by name, the end of time as `null`), a string, an object, an interval,
  /// and an array of objects, each value after its key with no separator of its own.
  @Test func valuesAfterKeysNestedAndIndented() {
    let text = Self.written(indent: 2) { writer in
      writer.beginObject()
      writer.key("a")
      writer.instant(Instant(millisecondsSince1970: 1_487_577_600_123))
      writer.key("b")
      writer.beginObject()
      writer.key("c")
      writer.interval(
        Interval(
          start: Instant(millisecondsSince1970: -62_135_596_800_000),
          end: Instant(millisecondsSince1970: 1_487_577_600_000)))
      writer.key("d")
      writer.instant(.distantPast)
      writer.key("e")
      writer.instant(.distantFuture)
      writer.endObject()
      writer.key("f")
      writer.beginArray()
      writer.beginObject()
      writer.key("g")
      writer.string("x")
      writer.endObject()
      writer.instant(Instant(millisecondsSince1970: 0))
      writer.endArray()
      writer.endObject()
    }
    #expect(
      text == """
        {
          "a": "2017-02-20T08:00:00.123Z",
          "b": {
            "c": {
              "end": "2017-02-20T08:00:00Z",
              "start": "0001-01-01T00:00:00Z"
            },
            "d": "distantPast",
            "e": null
          },
          "f": [
            {
              "g": "x"
            },
            "1970-01-01T00:00:00Z"
          ]
        }
        """)
  }
}
