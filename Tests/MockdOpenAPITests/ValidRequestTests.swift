import MockdCore
import MockdOpenAPI
import Testing

/// Requests a real API takes that a stricter reading would refuse: numbers in exponent form,
/// empty values a parameter allows, `null` in form fields that may be null, and a query
/// parameter whose value is JSON.
@Suite struct ValidRequestTests {
    static let document = """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /measure/{size}:
            get:
              parameters:
                - {name: size, in: path, required: true, schema: {type: number}}
                - {name: ratio, in: query, schema: {type: number, maximum: 1}}
                - {name: count, in: query, schema: {type: integer, minimum: 50}}
                - {name: X-Scale, in: header, schema: {type: number}}
                - {name: q, in: query, allowEmptyValue: true, schema: {type: integer, minimum: 1}}
                - {name: strict, in: query, schema: {type: integer}}
                - name: filter
                  in: query
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [tags]
                        properties: {tags: {type: array, items: {type: string}}, limit: {type: integer}}
              responses:
                "200": {description: ok}
          /form:
            post:
              requestBody:
                content:
                  application/x-www-form-urlencoded:
                    schema: {type: object, properties: {weight: {type: number}, count: {type: integer}}}
                  multipart/form-data:
                    schema:
                      type: object
                      properties:
                        note: {anyOf: [{type: integer}, {type: "null"}]}
                        size: {type: [integer, "null"]}
              responses:
                "200": {description: ok}
        """

    static let urlEncoded = [("Content-Type", "application/x-www-form-urlencoded")]
    static let multipart = [("Content-Type", "multipart/form-data; boundary=XyZ")]

    static func parts(_ fields: [(String, String)]) -> String {
        fields.map { "--XyZ\r\nContent-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)\r\n" }.joined() + "--XyZ--\r\n"
    }

    @Test func numbersInExponentFormAreNumbers() throws {
        try withDocument(Self.document) { api in
            let good = api.answer("GET", "/measure/1e2?ratio=2.5E-3&count=1e2", headers: [("X-Scale", "1E+1")])
            #expect(good.status == 200, "\(good.bodyText)")
            // Read as the number it is: 2 is above the maximum, 1.5 is no integer.
            let above = api.answer("GET", "/measure/1?ratio=2e0")
            #expect(above.status == 422)
            #expect(above.bodyText.contains("query.ratio: expected at most 1"), "\(above.bodyText)")
            let fraction = api.answer("GET", "/measure/1?count=1.5e2")
            #expect(fraction.status == 200, "150 is an integer: \(fraction.bodyText)")
            let notInteger = api.answer("GET", "/measure/1?count=5.05e1")
            #expect(notInteger.status == 422)
            #expect(notInteger.bodyText.contains("query.count: expected integer"), "\(notInteger.bodyText)")
            // Not numbers at all.
            for text in ["1e", "e2", "1e400", "inf", "0x10"] {
                #expect(api.answer("GET", "/measure/1?ratio=\(text)").status == 422, "\(text)")
            }
            let form = api.answer("POST", "/form", headers: Self.urlEncoded, body: "weight=1e3&count=2E2")
            #expect(form.status == 200, "\(form.bodyText)")
        }
    }

    @Test func allowEmptyValueLetsAnEmptyQueryValuePass() throws {
        try withDocument(Self.document) { api in
            #expect(api.answer("GET", "/measure/1?q=").status == 200)
            #expect(api.answer("GET", "/measure/1?q").status == 200)
            #expect(api.answer("GET", "/measure/1?q=0").status == 422)
            let strict = api.answer("GET", "/measure/1?strict=")
            #expect(strict.status == 422)
            #expect(strict.bodyText.contains("query.strict"), "\(strict.bodyText)")
        }
    }

    @Test func nullInAMultipartFieldThatMayBeNull() throws {
        try withDocument(Self.document) { api in
            let empty = api.answer("POST", "/form", headers: Self.multipart, body: Self.parts([("note", ""), ("size", "")]))
            #expect(empty.status == 200, "\(empty.bodyText)")
            let null = api.answer("POST", "/form", headers: Self.multipart, body: Self.parts([("note", "null"), ("size", "null")]))
            #expect(null.status == 200, "\(null.bodyText)")
            let numbers = api.answer("POST", "/form", headers: Self.multipart, body: Self.parts([("note", "3"), ("size", "4")]))
            #expect(numbers.status == 200, "\(numbers.bodyText)")
            let text = api.answer("POST", "/form", headers: Self.multipart, body: Self.parts([("note", "x")]))
            #expect(text.status == 422)
            #expect(text.bodyText.contains("body.note"), "\(text.bodyText)")
        }
    }

    @Test func aQueryParameterWithJSONContentIsParsedAsJSON() throws {
        try withDocument(Self.document) { api in
            // The comma inside a string is the JSON's, not a list's.
            let good = api.answer("GET", #"/measure/1?filter={"tags":["a,b","c"],"limit":3}"#)
            #expect(good.status == 200, "\(good.bodyText)")
            let missing = api.answer("GET", #"/measure/1?filter={"limit":3}"#)
            #expect(missing.status == 422)
            #expect(missing.bodyText.contains("query.filter.tags: required, missing"), "\(missing.bodyText)")
            let notJSON = api.answer("GET", "/measure/1?filter=a,b")
            #expect(notJSON.status == 422)
            #expect(notJSON.bodyText.contains("query.filter"), "\(notJSON.bodyText)")
        }
    }

    /// Swagger 2.0 `formData` parameters have `allowEmptyValue` too.
    @Test func allowEmptyValueInASwagger2Form() throws {
        let document = """
            swagger: "2.0"
            info: {title: t, version: "1"}
            paths:
              /signup:
                post:
                  consumes: [application/x-www-form-urlencoded]
                  parameters:
                    - {name: nickname, in: formData, type: string, minLength: 2, allowEmptyValue: true}
                    - {name: age, in: formData, type: integer, required: true}
                  responses:
                    "200": {description: ok}
            """
        try withDocument(document) { api in
            let empty = api.answer("POST", "/signup", headers: Self.urlEncoded, body: "nickname=&age=1e1")
            #expect(empty.status == 200, "\(empty.bodyText)")
            let short = api.answer("POST", "/signup", headers: Self.urlEncoded, body: "nickname=a&age=3")
            #expect(short.status == 422)
            #expect(short.bodyText.contains("body.nickname"), "\(short.bodyText)")
        }
    }
}
