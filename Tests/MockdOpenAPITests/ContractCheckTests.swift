import MockdCore
import Testing

/// A mock body checked against the documented schema of the answer it gives: what
/// `POST /__mockd/mocks` refuses before writing a file.
@Suite struct ContractCheckTests {
    static let document = """
        openapi: 3.1.0
        info: {title: t, version: "1"}
        paths:
          /pets/{id}:
            get:
              responses:
                "200":
                  description: one pet
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Pet"}
                4XX:
                  description: a client error
                  content:
                    application/problem+json:
                      schema: {type: object, required: [title], properties: {title: {type: string}}}
                default:
                  description: anything else
                  content:
                    application/json:
                      schema: {type: object, required: [code], properties: {code: {type: integer}}}
          /notes:
            get:
              responses:
                "200":
                  description: text
                  content:
                    text/plain:
                      schema: {type: string}
        components:
          schemas:
            Pet:
              type: object
              required: [id, name, password]
              properties:
                id: {type: integer, readOnly: true}
                name: {type: string}
                password: {type: string, writeOnly: true}
        """

    static func finding(_ path: String, status: Int = 200, _ body: String, method: String = "GET") throws -> ContractFinding? {
        try withDocument(document) { fixture in
            fixture.snapshot.operations.contractFinding(method: method, path: path, status: status, body: try JSONParser.parse(body))
        }
    }

    @Test func aBodyThatFollowsTheSchemaHasNoViolations() throws {
        // `password` is writeOnly: a response leaves it out; `id` is readOnly: a response has it.
        let finding = try #require(try Self.finding("/pets/7", #"{"id": 7, "name": "Rex"}"#))
        #expect(finding.violations == [])
        #expect(finding.checkedAgainst == "openapi api.yaml GET /pets/{id} 200")
    }

    @Test func everyViolationIsNamedWithItsPlace() throws {
        let finding = try #require(try Self.finding("/pets/7", #"{"id": "7"}"#))
        #expect(finding.violations == [#"body.name: required, missing"#, #"body.id: expected integer, found "7""#])
    }

    @Test func aReadOnlyPropertyIsRequiredOfAResponse() throws {
        let finding = try #require(try Self.finding("/pets/7", #"{"name": "Rex"}"#))
        #expect(finding.violations == ["body.id: required, missing"])
    }

    @Test func aStatusIsCheckedAgainstItsOwnItsClassOrDefault() throws {
        // 404: the 4XX class, in its JSON media type (problem+json).
        let notFound = try #require(try Self.finding("/pets/7", status: 404, #"{"message": "gone"}"#))
        #expect(notFound.checkedAgainst == "openapi api.yaml GET /pets/{id} 4XX")
        #expect(notFound.violations == ["body.title: required, missing"])
        // 503: default.
        let unavailable = try #require(try Self.finding("/pets/7", status: 503, #"{"code": "down"}"#))
        #expect(unavailable.checkedAgainst == "openapi api.yaml GET /pets/{id} default")
        #expect(unavailable.violations == [#"body.code: expected integer, found "down""#])
        // HEAD is answered as GET.
        #expect(try Self.finding("/pets/7", #"{"id": 1, "name": "a"}"#, method: "HEAD")?.violations == [])
    }

    @Test func nothingToCheckAgainstIsNoFinding() throws {
        #expect(try Self.finding("/cats/7", #"{"anything": 1}"#) == nil)  // undocumented path
        #expect(try Self.finding("/pets/7", #"{}"#, method: "DELETE") == nil)  // undocumented method
        #expect(try Self.finding("/notes", #"{"not": "text"}"#) == nil)  // no JSON schema
    }
}
