import MockdCore
import MockdOpenAPI
import Testing

/// `application/x-www-form-urlencoded` and `multipart/form-data` bodies (OpenAPI 3 and
/// Swagger 2.0 `formData`) are parsed and checked against their schema, like JSON bodies.
@Suite struct FormBodyTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /form:
            post:
              requestBody:
                required: true
                content:
                  application/x-www-form-urlencoded:
                    schema:
                      type: object
                      required: [id, name]
                      properties:
                        id: {type: integer, minimum: 100, exclusiveMinimum: true}
                        name: {type: string}
                        tags: {type: array, items: {type: string}, maxItems: 2}
                        data: {type: string, format: byte}
                        meta: {type: object, properties: {size: {type: integer}}}
                    encoding:
                      meta: {contentType: application/json}
              responses:
                "200": {description: ok}
          /upload:
            post:
              requestBody:
                content:
                  multipart/form-data:
                    schema:
                      type: object
                      required: [title, file]
                      properties:
                        title: {type: string, minLength: 3}
                        count: {type: integer}
                        file: {type: string, format: binary}
              responses:
                "200": {description: ok}
        """

    static let form: [(String, String)] = [("Content-Type", "application/x-www-form-urlencoded")]

    @Test func urlEncoded() throws {
        try withDocument(Self.document) { fixture throws in
            let good = fixture.answer(
                "POST", "/form", headers: Self.form, body: "id=101&name=Tom+Cat&tags=a&tags=b&data=bW9ja2Q%3D&meta=%7B%22size%22%3A1%7D")
            #expect(good.status == 200, "\(good.bodyText)")

            let missing = fixture.answer("POST", "/form", headers: Self.form, body: "id=101")
            #expect(missing.status == 422)
            #expect(missing.bodyText.contains("body.name: required, missing"), "\(missing.bodyText)")

            let bound = fixture.answer("POST", "/form", headers: Self.form, body: "id=100&name=x")
            #expect(bound.status == 422)
            #expect(bound.bodyText.contains("body.id"), "\(bound.bodyText)")

            let notBase64 = fixture.answer("POST", "/form", headers: Self.form, body: "id=101&name=x&data=not%20base64!")
            #expect(notBase64.status == 422)
            #expect(notBase64.bodyText.contains("body.data: expected a byte"), "\(notBase64.bodyText)")

            let tooMany = fixture.answer("POST", "/form", headers: Self.form, body: "id=101&name=x&tags=a&tags=b&tags=c")
            #expect(tooMany.status == 422)

            let badJSON = fixture.answer("POST", "/form", headers: Self.form, body: "id=101&name=x&meta=%7B%22size%22%3A%22big%22%7D")
            #expect(badJSON.status == 422)
            #expect(badJSON.bodyText.contains("body.meta.size"), "\(badJSON.bodyText)")
        }
    }

    @Test func multipart() throws {
        try withDocument(Self.document) { fixture throws in
            func body(_ fields: [(String, String)]) -> String {
                fields.map { "--XyZ\r\nContent-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)\r\n" }.joined() + "--XyZ--\r\n"
            }
            let headers = [("Content-Type", "multipart/form-data; boundary=XyZ")]
            let good = fixture.answer(
                "POST", "/upload", headers: headers, body: body([("title", "Hello"), ("count", "3"), ("file", "raw bytes")]))
            #expect(good.status == 200, "\(good.bodyText)")
            let bad = fixture.answer("POST", "/upload", headers: headers, body: body([("title", "Hi"), ("count", "many")]))
            #expect(bad.status == 422)
            #expect(bad.bodyText.contains("body.file: required, missing"), "\(bad.bodyText)")
            #expect(bad.bodyText.contains("body.title"), "\(bad.bodyText)")
            #expect(bad.bodyText.contains("body.count: expected integer"), "\(bad.bodyText)")
        }
    }

    @Test func swagger2FormData() throws {
        let document = """
            swagger: "2.0"
            info: {title: t, version: "1"}
            paths:
              /login:
                post:
                  consumes: [application/x-www-form-urlencoded]
                  parameters:
                    - {name: user, in: formData, required: true, type: string}
                    - {name: age, in: formData, type: integer, minimum: 18}
                  responses:
                    "200": {description: ok}
            """
        try withDocument(document) { fixture throws in
            #expect(fixture.answer("POST", "/login", headers: Self.form, body: "user=a&age=20").status == 200)
            let bad = fixture.answer("POST", "/login", headers: Self.form, body: "age=3")
            #expect(bad.status == 422)
            #expect(bad.bodyText.contains("body.user: required, missing"), "\(bad.bodyText)")
            #expect(bad.bodyText.contains("body.age"), "\(bad.bodyText)")
            // A required formData field makes the body required: none at all is refused too.
            let empty = fixture.answer("POST", "/login", headers: Self.form)
            #expect(empty.status == 422)
            #expect(empty.bodyText.contains("body: required, missing"), "\(empty.bodyText)")
        }
    }
}
