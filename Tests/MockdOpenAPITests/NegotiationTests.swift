import MockdCore
import MockdOpenAPI
import Testing

/// `Accept` chooses among a response's media types (RFC 9110: q-values, wildcards, the most
/// specific range); nothing acceptable, or no `Accept`, gets the first one (no 406).
@Suite struct NegotiationTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /pet:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json: {example: {name: "Tom"}}
                    application/xml: {example: "<pet><name>Tom</name></pet>"}
                    application/vnd.api+json: {example: {data: {name: "Tom"}}}
                    text/plain: {example: "Tom"}
        """

    @Test func accept() throws {
        try withDocument(Self.document) { fixture throws in
            func type(_ accept: String?) -> String? {
                let answer = fixture.answer("GET", "/pet", headers: accept.map { [("Accept", $0)] } ?? [])
                return answer.header("Content-Type")
            }
            #expect(type(nil) == "application/json")
            #expect(type("application/xml") == "application/xml")
            #expect(type("application/json;q=0.8, application/xml") == "application/xml")
            #expect(type("application/vnd.api+json") == "application/vnd.api+json")
            #expect(type("text/*, application/json;q=0.5") == "text/plain")
            #expect(type("*/*;q=0.1, application/xml;q=0.2") == "application/xml")
            // The most specific range decides: text/plain is refused though text/* is welcome.
            #expect(type("text/plain;q=0, */*;q=0.5") == "application/json")
            #expect(type("image/png") == "application/json")
            #expect(type("*/*") == "application/json")
            let xml = fixture.answer("GET", "/pet", headers: [("Accept", "Application/XML")])
            #expect(xml.bodyText == "<pet><name>Tom</name></pet>")
        }
    }
}
