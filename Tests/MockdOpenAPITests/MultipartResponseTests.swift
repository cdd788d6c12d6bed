import MockdCore
import Testing

/// A `multipart/form-data` response was sent as JSON with no boundary, which a generated client
/// cannot read: now its parts go between the boundary its Content-Type names.
@Suite("OpenAPI multipart responses")
struct MultipartResponseTests {
    static let document = """
        openapi: 3.1.0
        info: {title: files, version: "1"}
        paths:
          /upload-result:
            get:
              responses:
                '200':
                  description: a form back
                  content:
                    multipart/form-data:
                      schema:
                        type: object
                        required: [name, size, tags, meta]
                        properties:
                          name: {type: string, example: report.pdf}
                          size: {type: integer, example: 42}
                          tags: {type: array, items: {type: string}, example: [a, b]}
                          meta: {type: object, properties: {owner: {type: string, example: ann}}}
                      encoding:
                        meta: {contentType: application/json}
        """

    @Test func eachMemberIsAPartBetweenTheNamedBoundary() throws {
        try withDocument(Self.document) { api in
            let answer = api.answer("GET", "/upload-result")
            #expect(answer.status == 200)
            let contentType = try #require(answer.header("Content-Type"))
            let named = try #require(contentType.split(separator: "; boundary=", maxSplits: 1).last.map(String.init))
            #expect(contentType.hasPrefix("multipart/form-data; boundary=") && !named.isEmpty, "\(contentType)")
            let boundary = "--" + named
            let expected = [
                boundary, #"Content-Disposition: form-data; name="name""#, "", "report.pdf",
                boundary, #"Content-Disposition: form-data; name="size""#, "", "42",
                boundary, #"Content-Disposition: form-data; name="tags""#, "", "a",
                boundary, #"Content-Disposition: form-data; name="tags""#, "", "b",
                boundary, #"Content-Disposition: form-data; name="meta""#, "Content-Type: application/json", "", #"{"owner":"ann"}"#,
                boundary + "--", "",
            ].joined(separator: "\r\n")
            #expect(answer.bodyText == expected, "\(answer.bodyText)")
        }
    }
}
