import MockdCore
import MockdOpenAPI
import Testing

/// Documented response headers with an `example`, `examples` or schema `default` are sent;
/// `Prefer: dynamic=true` makes them from their schema.
@Suite struct ResponseHeaderTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /h:
            get:
              responses:
                "200":
                  description: ok
                  headers:
                    X-Example: {schema: {type: string}, example: "ex"}
                    X-Examples: {schema: {type: string}, examples: {first: {value: "one"}, second: {value: "two"}}}
                    X-Default: {schema: {type: integer, default: 7}}
                    X-Plain: {schema: {type: string}}
                    X-Count: {schema: {type: integer, minimum: 10, maximum: 20}}
                  content: {application/json: {example: {ok: true}}}
        """

    @Test func documentedValuesAreSentAndDynamicMakesThem() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("GET", "/h")
            #expect(answer.header("X-Example") == "ex")
            #expect(answer.header("X-Examples") == "one")
            #expect(answer.header("X-Default") == "7")
            #expect(answer.header("X-Plain") == nil)
            #expect(answer.header("X-Count") == nil)

            let dynamic = fixture.answer("GET", "/h", headers: [("Prefer", "dynamic=true, seed=3")])
            let count = try #require(dynamic.header("X-Count").flatMap { Int($0) })
            #expect((10...20).contains(count))
            #expect(dynamic.header("X-Plain") != nil)
        }
    }
}
