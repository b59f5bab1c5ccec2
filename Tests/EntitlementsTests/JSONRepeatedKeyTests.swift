import Entitlements
import Testing

@Suite("JSON reader: repeated keys and positions")
struct JSONRepeatedKeyTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var json: String
    var paths: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    .init(name: "no repeat", json: #"{"a": 1, "b": {"a": 2}}"#, paths: []),
    .init(name: "at the top", json: #"{"a": 1, "a": 2}"#, paths: ["a"]),
    .init(
      name: "in an object in an array", json: #"{"x": [{"b": 1}, {"b": 1, "b": 2}]}"#,
      paths: ["x[1].b"]),
    .init(name: "three times", json: #"{"a": 1, "a": 2, "a": 3}"#, paths: ["a", "a"]),
    .init(
      name: "in nested arrays", json: #"[[{"k": 0}], [{"k": 1, "k": 1}]]"#, paths: ["[1][0].k"]),
  ]

  @Test(arguments: cases)
  func repeatedKeysAreReportedWithTheirPath(_ test: Case) throws {
    var repeated: [JSONRepeatedKey] = []
    let strict = try JSONValue(parsing: Array(test.json.utf8), repeatedKeys: &repeated)
    #expect(repeated.map(\.path) == test.paths)
    // The value is the tolerant reader's: the last member wins in both.
    #expect(strict == (try JSONValue(parsing: Array(test.json.utf8))))
  }

  @Test func theOffsetIsTheSecondName() throws {
    var repeated: [JSONRepeatedKey] = []
    _ = try JSONValue(parsing: Array(#"{"name": "a", "name": "b"}"#.utf8), repeatedKeys: &repeated)
    #expect(repeated == [JSONRepeatedKey(path: "name", offset: 14)])
  }

  @Test(arguments: [
    ("{\n  \"a\": tru\n}", 2, 8),
    ("[1,\r\n 2,]", 2, 4),
    ("{\"é\": x}", 1, 7),
    ("[", 1, 2),
  ])
  func syntaxErrorsHaveALineAndColumn(text: String, line: Int, column: Int) {
    let bytes = Array(text.utf8)
    do {
      _ = try JSONValue(parsing: bytes)
      Issue.record("accepted \(text)")
    } catch {
      let position = error.position(in: bytes)
      #expect(position.line == line && position.column == column, "\(error)")
    }
  }
}
