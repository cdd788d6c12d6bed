import MockdCore
@testable import MockdOpenAPI
import Testing

/// A YAML integer is a JSON number whatever its size, as the same document written in JSON is.
@Suite struct YAMLNumberTests {
    @Test(arguments: [
        ("n: 123456789012345678901234567890", "123456789012345678901234567890"),
        ("n: -98765432109876543210", "-98765432109876543210"),
        ("n: +18446744073709551616", "18446744073709551616"),
        ("n: 9223372036854775807", "9223372036854775807"),
    ])
    func anIntegerBeyond64BitsIsANumber(yaml: String, expected: String) throws {
        let value = try DocumentReader.parse(Array(yaml.utf8))
        #expect(value["n"] == .number(expected))
    }

    @Test func aServedExampleKeepsTheNumber() throws {
        let document = """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /big:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          example: {id: 123456789012345678901234567890}
            """
        try withDocument(document) { fixture throws in
            #expect(fixture.answer("GET", "/big").bodyText == "{\n  \"id\": 123456789012345678901234567890\n}\n")
        }
    }

    /// A YAML float is served as the document writes it (JSON's number syntax is YAML's too),
    /// not as a Double prints it: `2.50` stays `2.50`, and one beyond a Double's range stays a number.
    @Test(arguments: [
        ("n: 2.50", "2.50"),
        ("n: -1.0e+3", "-1.0e+3"),
        ("n: 1.5e400", "1.5e400"),
        ("n: 18446744073709551616.25", "18446744073709551616.25"),
    ])
    func aFloatKeepsItsText(yaml: String, expected: String) throws {
        let value = try DocumentReader.parse(Array(yaml.utf8))
        #expect(value["n"] == .number(expected))
    }

    /// Bounds and sizes beyond 64 bits load, generate and validate without a trap: every
    /// conversion to `Int` of a document's number is clamped or exact.
    @Test func boundsBeyond64BitsNeitherTrapNorTurnIntoText() throws {
        let document = """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /bounded/{n}:
                get:
                  parameters:
                    - {name: n, in: path, required: true, schema: {type: integer, maximum: 99999999999999999999, minimum: -18446744073709551616}}
                    - {name: m, in: query, schema: {type: number, minimum: 18446744073709551616, multipleOf: 99999999999999999999}}
                    - {name: s, in: query, schema: {type: string, maxLength: 99999999999999999999, minLength: 18446744073709551616}}
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [n, m, s, a, e]
                            properties:
                              n: {type: integer, maximum: 99999999999999999999, minimum: 18446744073709551616}
                              m: {type: number, maximum: 99999999999999999999, exclusiveMinimum: -99999999999999999999}
                              s: {type: string, maxLength: 99999999999999999999, minLength: 18446744073709551616}
                              a: {type: array, maxItems: 18446744073709551616, minItems: 99999999999999999999, items: {type: integer, multipleOf: 99999999999999999999}}
                              e: {type: integer, example: 18446744073709551616, default: -99999999999999999999}
            """
        try withDocument(document) { fixture throws in
            let answer = fixture.answer("GET", "/bounded/18446744073709551615")
            #expect(answer.status == 200, "\(answer.bodyText)")
            let body = try answer.json()
            #expect(body["e"] == .number("18446744073709551616"))
            #expect(fixture.answer("GET", "/bounded/199999999999999999999").status == 422)
            #expect(fixture.answer("GET", "/bounded/1?m=99999999999999999999").status == 200)
            #expect(fixture.answer("GET", "/bounded/1", headers: [("Prefer", "dynamic=true")]).status == 200)
        }
    }
}
