import MockdCore
import MockdOpenAPI
import Testing

/// Swagger 2.0 response `examples` (keyed by media type) are served, with or without a schema,
/// whatever their key: `*/*` stands for each type the operation produces.
@Suite struct Swagger2ExampleTests {
    static let document = """
        swagger: "2.0"
        info: {title: t, version: "1"}
        produces: [application/json]
        paths:
          /hello:
            get:
              responses:
                "200": {description: ok, examples: {application/json: "hello"}}
          /any:
            get:
              responses:
                "200": {description: ok, examples: {"*/*": {a: 1}}}
          /text:
            get:
              responses:
                "200": {description: ok, schema: {type: string}, examples: {text/plain: "plain hello"}}
        """

    @Test func examplesWithoutSchemaUnderAnyKeyAreServed() throws {
        try withDocument(Self.document) { fixture throws in
            let hello = fixture.answer("GET", "/hello")
            #expect(hello.status == 200)
            #expect(hello.header("Content-Type") == "application/json")
            #expect(try hello.json() == "hello")

            let any = fixture.answer("GET", "/any")
            #expect(any.header("Content-Type") == "application/json")
            #expect(try any.json() == ["a": 1])

            let text = fixture.answer("GET", "/text")
            #expect(text.header("Content-Type") == "text/plain")
            #expect(text.bodyText == "plain hello")
        }
    }
}
