import MockdCore
import MockdOpenAPI
import Testing

/// Request validation: each kind of violation, the status it gets, warn and off, 401.
@Suite struct ValidationTests {
    static let document = """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /items/{id}:
            parameters:
              - {name: id, in: path, required: true, schema: {type: integer}}
            post:
              parameters:
                - {name: mode, in: query, required: true, schema: {type: string, enum: [fast, slow]}}
                - {name: X-Trace, in: header, schema: {type: string, format: uuid}}
                - {name: session, in: cookie, required: true, schema: {type: string}}
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [name, id]
                      properties:
                        id: {type: integer, readOnly: true}
                        name: {type: string, minLength: 2}
                        tags: {type: array, items: {type: string}, maxItems: 2}
              responses:
                "200": {description: ok, content: {application/json: {example: {ok: true}}}}
          /documented:
            post:
              requestBody: {content: {application/json: {schema: {type: object, properties: {n: {type: integer}}}}}}
              responses:
                "200": {description: ok}
                "422": {description: invalid, content: {application/json: {example: {documented: 422}}}}
                "400": {description: bad}
          /secret:
            get:
              security: [{key: []}, {token: []}]
              responses:
                "200": {description: ok}
        components:
          securitySchemes:
            key: {type: apiKey, in: header, name: X-API-Key}
            token: {type: http, scheme: bearer}
        """

    static let valid: [(String, String)] = [("Content-Type", "application/json"), ("Cookie", "session=abc")]

    @Test func aValidRequestIsAnswered() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("POST", "/items/3?mode=fast", headers: Self.valid, body: #"{"name": "ab", "tags": ["x"]}"#)
            #expect(answer.status == 200, "\(answer.bodyText)")
        }
    }

    @Test func everyViolationIsListedWithItsPlace() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer(
                "POST", "/items/x?mode=medium", headers: [("Content-Type", "application/json"), ("X-Trace", "nope")],
                body: #"{"name": 12, "tags": ["a", "b", "c"]}"#)
            #expect(answer.status == 422)
            #expect(answer.header("Content-Type") == "application/problem+json")
            let errors = try #require(try answer.json()["errors"]).serialized
            #expect(errors.contains(#"path.id: expected integer, found \"x\""#))
            #expect(errors.contains(#"query.mode: expected one of \"fast\", \"slow\", found \"medium\""#))
            #expect(errors.contains(#"header.X-Trace: expected a uuid, found \"nope\""#))
            #expect(errors.contains("cookie.session: required, missing"))
            #expect(errors.contains("body.name: expected string, found 12"))
            #expect(errors.contains("body.tags: expected at most 2 items, found 3"))
            // `id` is readOnly: a request may leave it out.
            #expect(!errors.contains("body.id"))
        }
    }

    /// A path parameter whose schema is a string with only its length bounded is checked on the
    /// segment itself; the bounds count Unicode scalars as the schema check does, and a value out
    /// of them gets the same message.
    @Test(
        arguments: [
            ("/plain/abc", nil),
            ("/plain/ab", "path.id: expected at least 3 characters, found 2"),
            ("/plain/abcdef", "path.id: expected at most 5 characters, found 6"),
            ("/plain/\u{e9}\u{e9}\u{e9}", nil),
            ("/plain/e\u{301}e\u{301}e", nil),
            ("/plain/e\u{301}e\u{301}e\u{301}", "path.id: expected at most 5 characters, found 6"),
            ("/label/.abc", nil),
            ("/label/.abcdef", "path.id: expected at most 5 characters, found 6"),
            ("/nullable/ab", "path.id: expected at least 3 characters, found 2"),
            ("/short/ab", nil),
            ("/short/\u{e9}\u{e9}", nil),
            ("/short/abc", "path.id: expected at most 2 characters, found 3"),
            ("/short/\u{e9}\u{e9}\u{e9}", "path.id: expected at most 2 characters, found 3"),
        ] as [(String, String?)])
    func aStringPathParameterIsCheckedForItsLength(path: String, violation: String?) throws {
        let document = """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /plain/{id}:
                get:
                  parameters: [{name: id, in: path, required: true, schema: {type: string, minLength: 3, maxLength: 5}}]
                  responses: {"200": {description: ok}}
              /label/{id}:
                get:
                  parameters: [{name: id, in: path, required: true, style: label, schema: {type: string, minLength: 3, maxLength: 5}}]
                  responses: {"200": {description: ok}}
              /short/{id}:
                get:
                  parameters: [{name: id, in: path, required: true, schema: {type: string, maxLength: 2}}]
                  responses: {"200": {description: ok}}
              /nullable/{id}:
                get:
                  parameters: [{name: id, in: path, required: true, schema: {type: string, nullable: true, minLength: 3}}]
                  responses: {"200": {description: ok}}
            """
        try withDocument(document) { fixture throws in
            let answer = fixture.answer("GET", path)
            guard let violation else {
                #expect(answer.status == 200, "\(path): \(answer.bodyText)")
                return
            }
            #expect(answer.status == 422, "\(path)")
            #expect(try answer.json()["errors"] == [.string(violation)], "\(path)")
        }
    }

    @Test func theBodyItsPresenceAndItsContentType() throws {
        try withDocument(Self.document) { fixture throws in
            let missing = fixture.answer("POST", "/items/1?mode=fast", headers: Self.valid)
            #expect(try missing.json()["errors"]?.serialized.contains("body: required, missing") == true)
            let wrongType = fixture.answer(
                "POST", "/items/1?mode=fast", headers: [("Content-Type", "text/plain"), ("Cookie", "session=a")], body: "hi")
            #expect(
                try wrongType.json()["errors"]?.serialized.contains(
                    #"header.Content-Type: expected application/json, found \"text/plain\""#) == true)
            let broken = fixture.answer("POST", "/items/1?mode=fast", headers: Self.valid, body: "{")
            #expect(try broken.json()["errors"]?.serialized.contains("body: invalid JSON") == true)
        }
    }

    /// The sent Content-Type is compared bare: case, parameters and spaces around it do not count.
    @Test func theContentTypeIsComparedWithoutItsParameters() throws {
        try withDocument(Self.document) { fixture throws in
            for sent in ["Application/JSON; charset=utf-8", " application/json ;charset=UTF-8", "application/json\t"] {
                let answer = fixture.answer(
                    "POST", "/items/1?mode=fast", headers: [("Content-Type", sent), ("Cookie", "session=a")], body: #"{"name": 12}"#)
                #expect(answer.status == 422)
                // Matched, so the body was checked against the schema.
                #expect(try answer.json()["errors"] == ["body.name: expected string, found 12"], "\(sent)")
            }
            let other = fixture.answer(
                "POST", "/items/1?mode=fast", headers: [("Content-Type", "application/jsonx"), ("Cookie", "session=a")], body: "{}")
            #expect(try other.json()["errors"]?.serialized.contains("header.Content-Type: expected application/json") == true)
        }
    }

    @Test func theDocumented422ComesFirst() throws {
        try withDocument(Self.document) { fixture throws in
            let answer = fixture.answer("POST", "/documented", headers: [("Content-Type", "application/json")], body: #"{"n": "x"}"#)
            #expect(answer.status == 422)
            #expect(try answer.json() == ["documented": 422])
            #expect(answer.source.contains("body.n: expected integer"))
        }
    }

    @Test func warnAnswersAndKeepsTheViolationsInTheSource() throws {
        try withDocument(Self.document, validation: .warn) { fixture throws in
            let answer = fixture.answer("POST", "/items/x?mode=fast", headers: Self.valid, body: #"{"name": "ab"}"#)
            #expect(answer.status == 200)
            #expect(answer.source.contains("openapi-validate warn: path.id: expected integer"))
        }
        try withDocument(Self.document, validation: .off) { fixture throws in
            let answer = fixture.answer("POST", "/items/x?mode=fast", headers: Self.valid, body: #"{"name": "ab"}"#)
            #expect(answer.status == 200)
            #expect(!answer.source.contains("warn"))
        }
    }

    /// Missing credentials are a violation like the others: `warn` answers and says so, `off` does not check.
    @Test func warnAndOffAnswerWithoutCredentials() throws {
        try withDocument(Self.document, validation: .warn) { fixture throws in
            let answer = fixture.answer("GET", "/secret")
            #expect(answer.status == 200)
            #expect(
                answer.source.contains(#"openapi-validate warn: missing credentials: ApiKey header="X-API-Key" or Bearer"#),
                "\(answer.source)")
        }
        try withDocument(Self.document, validation: .off) { fixture throws in
            let answer = fixture.answer("GET", "/secret")
            #expect(answer.status == 200)
            #expect(!answer.source.contains("credentials"))
        }
    }

    @Test func missingCredentialsAre401WithAChallenge() throws {
        try withDocument(Self.document) { fixture throws in
            let refused = fixture.answer("GET", "/secret")
            #expect(refused.status == 401)
            #expect(refused.allHeaders.filter { $0.name == "WWW-Authenticate" }.map(\.value) == ["ApiKey header=\"X-API-Key\"", "Bearer"])
            #expect(fixture.answer("GET", "/secret", headers: [("X-API-Key", "k")]).status == 200)
            #expect(fixture.answer("GET", "/secret", headers: [("Authorization", "Bearer t")]).status == 200)
            #expect(fixture.answer("GET", "/secret", headers: [("Authorization", "Basic t")]).status == 401)
            #expect(fixture.answer("GET", "/secret", headers: [("Authorization", "bEARER t")]).status == 200)
            for lacking in ["Bearer", "Bearer   ", "Bearert", "Bear t", ""] {
                #expect(fixture.answer("GET", "/secret", headers: [("Authorization", lacking)]).status == 401, "\(lacking)")
            }
        }
    }
}
