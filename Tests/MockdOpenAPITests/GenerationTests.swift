import MockdCore
import MockdOpenAPI
import Testing

/// Generated bodies honour `contains`/`minContains` and the IDN/IRI formats; `Prefer:
/// dynamic=true` fills optional properties too, so a client sees every field it may decode.
@Suite struct GenerationTests {
    static let document = """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /g:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [list]
                        properties:
                          list: {type: array, items: {type: integer}, contains: {const: 42}, minContains: 2}
                          mail: {type: string, format: idn-email}
                          host: {type: string, format: idn-hostname}
                          link: {type: string, format: iri}
                          note: {type: string}
                          count: {type: integer}
        """

    @Test func containsFormatsAndOptionalProperties() throws {
        try withDocument(Self.document) { fixture throws in
            let body = try fixture.answer("GET", "/g").json()
            #expect(body["list"] == [42, 42])
            #expect(body["mail"] == "user@example.com")
            #expect(body["host"] == "example.com")
            #expect(body["link"] == "https://example.com/")
            for seed in 1...5 {
                let dynamic = try fixture.answer("GET", "/g", headers: [("Prefer", "dynamic=true, seed=\(seed)")]).json()
                #expect(dynamic["note"] != nil && dynamic["count"] != nil && dynamic["mail"] != nil, "\(dynamic)")
                guard case .array(let items)? = dynamic["list"] else { Issue.record("no list"); continue }
                #expect(items.filter { $0 == 42 }.count >= 2)
            }
        }
    }
}
