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
}
