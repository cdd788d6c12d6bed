import MockdCore
import MockdOpenAPI
import Testing

/// An explicit status before a range of its class; `Prefer: code` tries the exact status, then
/// its range, then `default`; an invalid request's answer honours `Prefer` too.
@Suite struct StatusSelectionTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /things:
            post:
              requestBody:
                required: true
                content: {application/json: {schema: {type: object, required: [name]}}}
              responses:
                "2XX": {description: range, content: {application/json: {example: {from: "2XX"}}}}
                "201": {description: created, content: {application/json: {example: {from: "201"}}}}
                "5XX": {description: server, content: {application/json: {example: {from: "5XX"}}}}
                "422":
                  description: invalid
                  content:
                    application/json:
                      examples:
                        first: {value: {from: "422 first"}}
                        named: {value: {from: "422 named"}}
                default: {description: other, content: {application/json: {example: {from: "default"}}}}
        """

    static let valid: [(String, String)] = [("Content-Type", "application/json")]

    @Test func explicitBeforeRangeAndRangeBeforeDefault() throws {
        try withDocument(Self.document) { fixture throws in
            let plain = fixture.answer("POST", "/things", headers: Self.valid, body: #"{"name": "a"}"#)
            #expect(plain.status == 201)
            #expect(try plain.json() == ["from": "201"])

            let bad = fixture.answer("POST", "/things", headers: Self.valid + [("Prefer", "code=502")], body: #"{"name": "a"}"#)
            #expect(bad.status == 502)
            #expect(try bad.json() == ["from": "5XX"])

            let range = fixture.answer("POST", "/things", headers: Self.valid + [("Prefer", "code=204")], body: #"{"name": "a"}"#)
            #expect(range.status == 204)

            let other = fixture.answer("POST", "/things", headers: Self.valid + [("Prefer", "code=404")], body: #"{"name": "a"}"#)
            #expect(other.status == 404)
            #expect(try other.json() == ["from": "default"])
        }
    }

    @Test func anInvalidRequestGetsTheNamedExampleOfThePreferredCode() throws {
        try withDocument(Self.document) { fixture throws in
            let invalid = fixture.answer("POST", "/things", headers: Self.valid, body: "{}")
            #expect(invalid.status == 422)
            #expect(try invalid.json() == ["from": "422 first"])
            let named = fixture.answer("POST", "/things", headers: Self.valid + [("Prefer", "example=named, code=422")], body: "{}")
            #expect(named.status == 422)
            #expect(try named.json() == ["from": "422 named"])
        }
    }
}
