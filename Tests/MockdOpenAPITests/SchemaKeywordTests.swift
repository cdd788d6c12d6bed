import MockdCore
@testable import MockdOpenAPI
import Testing

/// The JSON Schema validator and generator, keyword by keyword (no Swift library for either is
/// on the package mirror, so they are mockd's own and tested alone).
@Suite struct SchemaKeywordTests {
    /// Compiles `schema` (JSON text) as the only schema of a 3.1 document (3.0 when asked).
    static func compile(_ schema: String, openAPI30: Bool = false) throws -> (SchemaSet, Int) {
        let value = try JSONParser.parse(Array(schema.utf8))
        let documents = Documents(root: "test.json", value: ["schema": value], files: MemoryFiles([:]))
        var compiler = SchemaCompiler(documents: documents, openAPI30: openAPI30)
        let index = compiler.compile(value, at: Location(file: "test.json", pointer: "/schema"))
        #expect(compiler.problems.isEmpty)
        return (compiler.set, index)
    }

    static func violations(_ schema: String, _ value: String) throws -> [String] {
        let (set, index) = try compile(schema)
        return SchemaValidator(set: set).violations(try JSONParser.parse(Array(value.utf8)), index, at: "body")
    }

    static func generated(_ schema: String, openAPI30: Bool = false) throws -> String {
        let (set, index) = try compile(schema, openAPI30: openAPI30)
        var generator = ExampleGenerator(set: set)
        let value = generator.generate(index)
        #expect(SchemaValidator(set: set).isValid(value, index), "generated \(value.serialized) does not validate against \(schema)")
        return value.serialized
    }

    @Test(arguments: [
        (#"{"type": "string"}"#, "12", "body: expected string, found 12"),
        (#"{"type": "integer"}"#, "1.5", "body: expected integer, found 1.5"),
        (#"{"type": ["string", "null"]}"#, "true", "body: expected string or null, found true"),
        (#"{"enum": ["a", "b"]}"#, #""c""#, #"body: expected one of "a", "b", found "c""#),
        (#"{"const": 3}"#, "4", "body: expected 3, found 4"),
        (#"{"minimum": 2}"#, "1", "body: expected at least 2, found 1"),
        (#"{"maximum": 2}"#, "3", "body: expected at most 2, found 3"),
        (#"{"exclusiveMinimum": 2}"#, "2", "body: expected more than 2, found 2"),
        (#"{"exclusiveMaximum": 2}"#, "2", "body: expected less than 2, found 2"),
        (#"{"multipleOf": 3}"#, "7", "body: expected a multiple of 3, found 7"),
        (#"{"minLength": 3}"#, #""ab""#, "body: expected at least 3 characters, found 2"),
        (#"{"maxLength": 1}"#, #""ab""#, "body: expected at most 1 characters, found 2"),
        (#"{"pattern": "^a+$"}"#, #""ab""#, #"body: expected to match ^a+$, found "ab""#),
        (#"{"format": "date-time"}"#, #""2024-13-01T00:00:00Z""#, #"body: expected a date-time, found "2024-13-01T00:00:00Z""#),
        (#"{"format": "date"}"#, #""2023-02-29""#, #"body: expected a date, found "2023-02-29""#),
        (#"{"format": "uuid"}"#, #""1234""#, #"body: expected a uuid, found "1234""#),
        (#"{"format": "email"}"#, #""nobody""#, #"body: expected a email, found "nobody""#),
        (#"{"format": "uri"}"#, #""no scheme""#, #"body: expected a uri, found "no scheme""#),
        (#"{"format": "int32"}"#, "2147483648", "body: expected an int32, found 2147483648"),
        (#"{"format": "int64"}"#, "-9223372036854775809", "body: expected an int64, found -9223372036854775809"),
        (#"{"items": {"type": "integer"}}"#, #"[1, "x"]"#, #"body[1]: expected integer, found "x""#),
        (#"{"prefixItems": [{"type": "string"}]}"#, "[1]", "body[0]: expected string, found 1"),
        (#"{"minItems": 2}"#, "[1]", "body: expected at least 2 items, found 1"),
        (#"{"maxItems": 0}"#, "[1]", "body: expected at most 0 items, found 1"),
        (#"{"uniqueItems": true}"#, "[1, 1]", "body[1]: expected unique items, found a repeat"),
        (#"{"required": ["a"]}"#, "{}", "body.a: required, missing"),
        (#"{"properties": {"a": {"type": "string"}}}"#, #"{"a": 1}"#, "body.a: expected string, found 1"),
        (#"{"additionalProperties": false}"#, #"{"a": 1}"#, "body.a: not an allowed property"),
        (#"{"additionalProperties": {"type": "string"}}"#, #"{"a": 1}"#, "body.a: expected string, found 1"),
        (#"{"minProperties": 1}"#, "{}", "body: expected at least 1 properties, found 0"),
        (#"{"maxProperties": 0}"#, #"{"a": 1}"#, "body: expected at most 0 properties, found 1"),
        (#"{"allOf": [{"required": ["a"]}, {"required": ["b"]}]}"#, #"{"a": 1}"#, "body.b: required, missing"),
        (#"{"anyOf": [{"type": "string"}, {"type": "integer"}]}"#, "true", "body: matches none of the anyOf schemas"),
        (#"{"oneOf": [{"type": "integer"}, {"type": "number"}]}"#, "1", "body: matches 2 of the oneOf schemas, expected exactly 1"),
        (#"{"not": {"type": "string"}}"#, #""a""#, "body: matches a schema it must not match"),
        ("false", "1", "body: no value is allowed here"),
    ])
    func eachKeywordReportsItsViolation(schema: String, value: String, message: String) throws {
        #expect(try Self.violations(schema, value) == [message])
    }

    @Test func validValuesPass() throws {
        #expect(try Self.violations(#"{"type": "integer"}"#, "2.0") == [])
        #expect(try Self.violations(#"{"type": "number"}"#, "2") == [])
        #expect(try Self.violations(#"{"format": "int64"}"#, "9223372036854775807") == [])
        #expect(try Self.violations(#"{"format": "date-time"}"#, #""2024-02-29T23:59:59.5+01:00""#) == [])
        #expect(try Self.violations(#"{"format": "uuid"}"#, #""123e4567-e89b-12d3-a456-426614174000""#) == [])
        #expect(try Self.violations(#"{"oneOf": [{"type": "string"}, {"type": "integer"}]}"#, "1") == [])
        #expect(try Self.violations("true", "[1]") == [])
    }

    @Test func nullableIn30AddsNull() throws {
        let (set, index) = try Self.compile(#"{"type": "string", "nullable": true}"#, openAPI30: true)
        #expect(SchemaValidator(set: set).isValid(.null, index))
    }

    @Test(arguments: [
        (#"{"type": "string", "format": "date-time"}"#, #""2024-01-01T00:00:00Z""#),
        (#"{"type": "string", "format": "date"}"#, #""2024-01-01""#),
        (#"{"type": "string", "format": "uuid"}"#, #""00000000-0000-4000-8000-000000000000""#),
        (#"{"type": "string", "format": "email"}"#, #""user@example.com""#),
        (#"{"type": "string", "format": "uri"}"#, #""https://example.com/""#),
        (#"{"type": "string", "minLength": 8}"#, #""stringxx""#),
        (#"{"type": "string", "maxLength": 3}"#, #""str""#),
        (#"{"enum": ["b", "a"]}"#, #""b""#),
        (#"{"type": "integer", "minimum": 3, "maximum": 9}"#, "3"),
        (#"{"type": "integer", "maximum": -4}"#, "-4"),
        (#"{"type": "number", "exclusiveMinimum": 1}"#, "1.5"),
        (#"{"type": "boolean"}"#, "true"),
        (#"{"type": ["null", "integer"]}"#, "0"),
        (#"{"type": "array", "items": {"type": "integer"}, "minItems": 2}"#, "[0,0]"),
        (
            #"{"type": "object", "required": ["b"], "properties": {"a": {"type": "string", "writeOnly": true}, "b": {"type": "integer", "readOnly": true}}}"#,
            #"{"b":0}"#
        ),
        (
            #"{"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}}, {"properties": {"b": {"type": "string"}}}]}"#,
            #"{"a":0,"b":"string"}"#
        ),
        (#"{"oneOf": [{"type": "string"}, {"type": "integer"}]}"#, #""string""#),
        (#"{"anyOf": [{"type": "integer"}, {"type": "string"}]}"#, "0"),
        (#"{"type": "string", "example": "given"}"#, #""given""#),
        (#"{"type": "integer", "default": 7}"#, "7"),
    ])
    func eachKeywordShapesTheGeneratedValue(schema: String, expected: String) throws {
        #expect(try Self.generated(schema) == expected)
    }

    @Test func theSeedMakesDynamicValuesRepeatable() throws {
        let (set, index) = try Self.compile(
            #"{"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 5}, "s": {"type": "string"}}}"#)
        func make(_ seed: UInt64) -> JSONValue {
            var generator = ExampleGenerator(set: set, random: SplitMix64(seed: seed))
            return generator.generate(index)
        }
        #expect(make(1) == make(1))
        let values = (0..<20).map { make($0) }
        #expect(values.allSatisfy { SchemaValidator(set: set).isValid($0, index) })
        #expect(Set(values.map(\.serialized)).count > 1)
    }
}
