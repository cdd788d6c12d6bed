import MockdCore
@testable import MockdOpenAPI
import Testing

/// A document's numbers reach the example generator as they are written: bounds at the edge of
/// 64 bits and beyond, negative or enormous lengths, steps of any size, schemas that only
/// repeat themselves. Each one loads and answers; none stops mockd.
@Suite struct HostileSchemaTests {
    /// `ExampleGenerator.sizeLimit` and `nodeBudget`, as the documentation states them.
    static let sizeLimit = 10_000
    static let nodeBudget = 20_000

    /// Compiles `schema` as the only schema of a 3.1 document, keeping what the compiler says.
    static func compile(_ schema: String) throws -> (set: SchemaSet, index: Int, problems: [String]) {
        let value = try JSONParser.parse(Array(schema.utf8))
        let documents = Documents(root: "test.json", value: ["schema": value], files: MemoryFiles([:]))
        var compiler = SchemaCompiler(documents: documents, openAPI30: false)
        let index = compiler.compile(value, at: Location(file: "test.json", pointer: "/schema"))
        return (compiler.set, index, compiler.problems.map { "\($0.location): \($0.message)" })
    }

    /// The fixed value and a few seeded ones.
    static func generated(_ schema: String) throws -> [JSONValue] {
        let (set, index, _) = try compile(schema)
        var fixed = ExampleGenerator(set: set)
        var values = [fixed.generate(index)]
        for seed: UInt64 in 1...3 {
            var random = ExampleGenerator(set: set, random: SplitMix64(seed: seed))
            values.append(random.generate(index))
        }
        return values
    }

    static func size(_ value: JSONValue) -> Int {
        switch value {
        case .array(let items): 1 + items.map(size).reduce(0, +)
        case .object(let members): 1 + members.map { size($0.value) }.reduce(0, +)
        case .string(let text): 1 + text.utf8.count / 64
        default: 1
        }
    }

    @Test(arguments: [
        #"{"type": "integer", "maximum": 9223372036854775807}"#,
        #"{"type": "integer", "format": "int64", "minimum": -9223372036854775808, "maximum": 9223372036854775807}"#,
        #"{"type": "integer", "minimum": 9223372036854775807}"#,
        #"{"type": "integer", "exclusiveMinimum": 9223372036854775807}"#,
        #"{"type": "integer", "exclusiveMaximum": -9223372036854775808}"#,
        #"{"type": "integer", "minimum": 1e300}"#,
        #"{"type": "integer", "maximum": -1e300}"#,
        #"{"type": "integer", "minimum": 1e999}"#,
        #"{"type": "integer", "minimum": 5, "maximum": 1}"#,
        #"{"type": "integer", "multipleOf": 1e300}"#,
        #"{"type": "integer", "multipleOf": 1e-320}"#,
        #"{"type": "integer", "minimum": 9223372036854775000, "multipleOf": 1000}"#,
        #"{"type": "integer", "minimum": -9223372036854775808, "maximum": -9223372036854775000, "multipleOf": 1000}"#,
        #"{"type": "number", "exclusiveMinimum": 1e999}"#,
        #"{"type": "number", "minimum": 1e308, "maximum": 1e308, "multipleOf": 1e-308}"#,
        #"{"type": "number", "minimum": -1e308, "maximum": 1e308}"#,
        #"{"type": "string", "maxLength": -1}"#,
        #"{"type": "string", "minLength": -5, "maxLength": -6}"#,
        #"{"type": "string", "minLength": 1000000000000}"#,
        #"{"type": "string", "minLength": 9223372036854775807}"#,
        #"{"type": "array", "minItems": -3, "maxItems": -5}"#,
        #"{"type": "array", "items": {"type": "integer"}, "minItems": 1000000000000}"#,
        #"{"type": "array", "minItems": 9223372036854775807, "maxItems": 9223372036854775807}"#,
        #"{"type": "array", "contains": {"type": "integer"}, "minContains": 1000000000000}"#,
        #"{"type": "array", "contains": {"type": "integer"}, "minContains": -1}"#,
        ##"{"type": "object", "required": ["a", "b"], "properties": {"a": {"$ref": "#/schema"}, "b": {"$ref": "#/schema"}}}"##,
        #"{"type": "array", "minItems": 9000, "items": {"type": "array", "minItems": 9000, "items": {"type": "string", "minLength": 9000}}}"#,
        #"{"type": "array", "minItems": 9000, "items": {"type": "array", "minItems": 9000, "items": {"contentEncoding": "base64", "minLength": 9000}}}"#,
        // Arrays without `items` (their items made as "item"): counted in the budget too.
        #"{"type": "array", "minItems": 9000, "contains": {"const": 1}, "minContains": 3, "items": {"type": "array", "minItems": 8000}}"#,
        ##"{"allOf": [{"$ref": "#/schema"}, {"$ref": "#/schema"}], "properties": {"a": {"$ref": "#/schema"}}}"##,
        ##"{"anyOf": [{"$ref": "#/schema"}], "oneOf": [{"$ref": "#/schema"}]}"##,
    ])
    func generatingNeverStopsMockd(schema: String) throws {
        for value in try Self.generated(schema) {
            #expect(Self.size(value) <= 2 * Self.nodeBudget)
        }
    }

    @Test func boundsAtTheEdgeOf64BitsGiveValidIntegers() throws {
        for schema in [
            #"{"type": "integer", "format": "int64", "minimum": -9223372036854775808, "maximum": 9223372036854775807}"#,
            #"{"type": "integer", "minimum": 9223372036854775000, "multipleOf": 1000}"#,
            #"{"type": "integer", "minimum": 1, "multipleOf": 1.5}"#,
            #"{"type": "integer", "maximum": 9223372036854775807}"#,
        ] {
            let (set, index, _) = try Self.compile(schema)
            for value in try Self.generated(schema) {
                #expect(SchemaValidator(set: set).isValid(value, index), "\(value.serialized) for \(schema)")
            }
        }
    }

    @Test func hugeLengthsAreCutAndSaidAtLoad() throws {
        let values = try Self.generated(#"{"type": "string", "minLength": 1000000000000}"#)
        #expect(values.allSatisfy { ($0.stringValue?.count ?? 0) == Self.sizeLimit })
        let items = try Self.generated(#"{"type": "array", "items": {"type": "integer"}, "minItems": 1000000000000}"#)
        #expect(items.allSatisfy { ($0.arrayValue?.count ?? 0) == Self.sizeLimit })
        let (_, _, problems) = try Self.compile(#"{"type": "string", "minLength": 1000000000000}"#)
        #expect(
            problems == [
                "#/schema/minLength: 1000000000000 is more than mockd generates (10000): a generated value is cut to 10000, which breaks the schema; give an example"
            ])
    }

    @Test func impossibleKeywordsAreWarnings() throws {
        #expect(
            try Self.compile(#"{"type": "string", "maxLength": -1}"#).problems == [
                "#/schema/maxLength: expected a non-negative integer, found -1 (ignored)"
            ])
        #expect(
            try Self.compile(#"{"type": "number", "multipleOf": 0}"#).problems == [
                "#/schema/multipleOf: expected a number above 0, found 0 (ignored)"
            ])
        #expect(
            try Self.compile(#"{"type": "number", "minimum": 1e999}"#).problems == [
                "#/schema/minimum: expected a finite number, found 1e999 (ignored)"
            ])
    }

    /// The schema that stopped mockd: a response integer bounded by Int64's maximum, as some
    /// public documents write it. The document loads and answers, generated and dynamic.
    @Test func aDocumentWithAnInt64MaximumIsServed() throws {
        let document = """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /limits:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [id, flags]
                            properties:
                              id: {type: integer, format: int64, minimum: 0, maximum: 9223372036854775807}
                              flags: {type: integer, exclusiveMinimum: 9223372036854775807}
            """
        try withDocument(document) { fixture throws in
            let answer = fixture.answer("GET", "/limits")
            #expect(answer.status == 200)
            #expect(try answer.json()["id"] == 0)
            let dynamic = fixture.answer("GET", "/limits", headers: [("Prefer", "dynamic=true, seed=3")])
            #expect(dynamic.status == 200)
            #expect(try dynamic.json()["id"] != nil)
        }
    }
}
