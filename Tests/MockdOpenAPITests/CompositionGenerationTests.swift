import MockdCore
@testable import MockdOpenAPI
import Testing

/// Generated values follow `oneOf`/`anyOf` into the branch they take (its `enum`, `const`,
/// `example`, and the composition nested in it), and a property that several `allOf` parts
/// declare gets what every part says of it.
@Suite struct CompositionGenerationTests {
    static func generated(_ schema: String) throws -> JSONValue {
        let (set, index) = try SchemaKeywordTests.compile(schema)
        var generator = ExampleGenerator(set: set)
        let value = generator.generate(index)
        #expect(SchemaValidator(set: set).isValid(value, index), "generated \(value.serialized) does not validate against \(schema)")
        return value
    }

    @Test(arguments: [
        (#"{"anyOf": [{"type": "string", "enum": ["auto", "flex"]}, {"type": "null"}]}"#, #""auto""#),
        (#"{"oneOf": [{"type": "string", "const": "fixed"}, {"type": "integer"}]}"#, #""fixed""#),
        (#"{"oneOf": [{"type": "integer", "example": 7}, {"type": "string"}]}"#, "7"),
        (#"{"anyOf": [{"type": "integer", "default": 3}]}"#, "3"),
        (#"{"anyOf": [{"oneOf": [{"type": "string", "enum": ["a"]}, {"type": "integer"}]}, {"type": "null"}]}"#, #""a""#),
        (#"{"type": "object", "required": ["n"], "properties": {"n": {"oneOf": [{"enum": [2, 4]}]}}}"#, #"{"n":2}"#),
        (#"{"oneOf": [{"allOf": [{"type": "string"}, {"format": "uuid"}]}]}"#, #""00000000-0000-4000-8000-000000000000""#),
    ])
    func theChosenBranchShapesTheValue(schema: String, expected: String) throws {
        #expect(try Self.generated(schema).serialized == expected)
    }

    @Test func aBranchBehindAReferenceIsFollowed() throws {
        let (set, index) = try SchemaKeywordTests.compile(
            ##"{"anyOf": [{"$ref": "#/schema/$defs/Mode"}, {"type": "null"}], "$defs": {"Mode": {"type": "string", "enum": ["on", "off"]}}}"##
        )
        var generator = ExampleGenerator(set: set)
        #expect(generator.generate(index) == "on")
    }

    @Test(arguments: [
        (
            #"{"allOf": [{"type": "object", "required": ["mode"], "properties": {"mode": {"type": "string"}}}, {"properties": {"mode": {"enum": ["fast", "slow"]}}}]}"#,
            #"{"mode":"fast"}"#
        ),
        (
            #"{"allOf": [{"type": "object", "required": ["at"], "properties": {"at": {"type": "string"}}}, {"properties": {"at": {"format": "date"}}}]}"#,
            #"{"at":"2024-01-01"}"#
        ),
        (
            #"{"allOf": [{"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "example": 1}}}, {"properties": {"n": {"example": 5, "minimum": 5}}}]}"#,
            #"{"n":5}"#
        ),
        (
            #"{"allOf": [{"required": ["s"], "properties": {"s": {"type": "string", "enum": ["a", "b", "c"]}}}, {"properties": {"s": {"enum": ["c", "b"]}}}]}"#,
            #"{"s":"c"}"#
        ),
        (
            #"{"allOf": [{"required": ["o"], "properties": {"o": {"type": "object", "required": ["x"], "properties": {"x": {"type": "integer"}}}}}, {"properties": {"o": {"required": ["y"], "properties": {"y": {"type": "boolean"}}}}}]}"#,
            #"{"o":{"x":0,"y":true}}"#
        ),
    ])
    func aPropertyInSeveralAllOfPartsGetsEveryPart(schema: String, expected: String) throws {
        #expect(try Self.generated(schema).serialized == expected)
    }

    /// The issue's shape in a served document: a nullable choice of words, and a property
    /// narrowed by a second `allOf` part.
    @Test func aDocumentAnswersWithTheBranchAndTheMergedProperty() throws {
        let document = """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /settings:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema:
                            allOf:
                              - {$ref: "#/components/schemas/Base"}
                              - properties:
                                  tier: {enum: [gold, silver]}
            components:
              schemas:
                Base:
                  type: object
                  required: [layout, tier]
                  properties:
                    layout:
                      anyOf: [{type: string, enum: [auto, flex]}, {type: "null"}]
                    tier: {type: string}
            """
        try withDocument(document) { fixture throws in
            #expect(try fixture.answer("GET", "/settings").json() == ["layout": "auto", "tier": "gold"])
        }
    }
}
