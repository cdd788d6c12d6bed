import MockdCore
import MockdOpenAPI
import Testing

/// A `Prefer` the operation cannot meet is answered as without it, and said in
/// `X-Mockd-Warning` (as an unknown scenario is), not silently ignored.
@Suite struct UnmetPreferenceTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /pets:
            get:
              responses:
                "200":
                  description: pets
                  content:
                    application/json:
                      schema: {type: array, items: {type: string}}
                      examples:
                        two: {value: ["a", "b"]}
                "4XX": {description: client, content: {application/json: {example: {error: "bad"}}}}
          /notes:
            get:
              responses:
                "200": {description: notes, content: {text/plain: {example: "hello"}}}
        """

    @Test func anUndocumentedCodeIsSaidAndTheFirstAnswerGiven() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("GET", "/pets", headers: [("Prefer", "code=503")])
            #expect(answer.status == 200)
            #expect(answer.reply?.warning == "Prefer not met: code=503: GET /pets documents 200, 4XX")
            // A code its class documents is met: no warning.
            let met = fixture.answer("GET", "/pets", headers: [("Prefer", "code=404")])
            #expect(met.status == 404)
            #expect(met.reply?.warning == nil)
        }
    }

    @Test func anUnknownExampleNameIsSaidWithTheNamesThereAre() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("GET", "/pets", headers: [("Prefer", "example=three")])
            #expect(answer.status == 200)
            #expect(try answer.json() == ["a", "b"])
            #expect(answer.reply?.warning == #"Prefer not met: example=three: GET /pets names "two""#)
            #expect(fixture.answer("GET", "/pets", headers: [("Prefer", "example=two")]).reply?.warning == nil)
        }
    }

    @Test func dynamicWithoutASchemaIsSaid() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("GET", "/notes", headers: [("Prefer", "dynamic=true")])
            #expect(answer.status == 200)
            #expect(answer.reply?.warning == "Prefer not met: dynamic=true: this answer has no schema to generate from")
            #expect(fixture.answer("GET", "/pets", headers: [("Prefer", "dynamic=true")]).reply?.warning == nil)
        }
    }
}
