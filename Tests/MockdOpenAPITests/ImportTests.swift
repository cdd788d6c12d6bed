import MockdCore
@testable import MockdOpenAPI
import Testing

/// `mockd import openapi`'s plan: what becomes a file, what a route, what a scenario.
@Suite struct ImportTests {
    @Test func fixedPathsBecomeFilesAndTheRestRoutes() throws {
        let document = """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            servers: [{url: /v1}]
            paths:
              /pets:
                get:
                  responses:
                    "200":
                      description: ok
                      content: {application/json: {examples: {cat: {value: [{name: Tom}]}, empty: {value: []}}}}
                    "404": {description: none, content: {application/problem+json: {example: {title: gone}}}}
              /pets/{id}:
                get:
                  responses:
                    "200": {description: ok, content: {application/json: {example: {id: 1}}}}
            """
        try withDocument(document) { fixture throws in
            let plan = OpenAPIImport.plan(fixture.snapshot.operations)
            #expect(plan.files.map(\.name) == ["mock_v1_pets_get.json"])
            #expect(String(decoding: plan.files[0].bytes, as: UTF8.self) == "[\n  {\n    \"name\": \"Tom\"\n  }\n]\n")
            #expect(
                plan.routes.map(\.serialized) == [
                    #"{"name":"openapi api.yaml GET /pets (empty)","method":"GET","path":"/v1/pets","scenario":"empty","response":{"status":200,"json":[]}}"#,
                    #"{"name":"openapi api.yaml GET /pets (status-404)","method":"GET","path":"/v1/pets","scenario":"status-404","response":{"status":404,"headers":{"Content-Type":"application/problem+json"},"json":{"title":"gone"}}}"#,
                    #"{"name":"openapi api.yaml GET /pets/{id}","method":"GET","path":"/v1/pets/:id","response":{"status":200,"json":{"id":1}}}"#,
                ])
        }
    }

    /// A fixed-path 200 JSON answer with headers the document gives (a required one is made
    /// from its schema, another from its example) is a route keeping them, not a file dropping them.
    @Test func documentedHeadersMakeARoute() throws {
        let document = """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /quota:
                get:
                  responses:
                    "200":
                      description: ok
                      headers:
                        X-Rate-Limit-Remaining: {required: true, schema: {type: integer, minimum: 5, maximum: 5}}
                        ETag: {schema: {type: string}, example: "v1"}
                      content: {application/json: {example: {used: 1}}}
              /plain:
                get:
                  responses:
                    "200": {description: ok, content: {application/json: {example: {ok: true}}}}
            """
        try withDocument(document) { fixture throws in
            let plan = OpenAPIImport.plan(fixture.snapshot.operations)
            #expect(plan.files.map(\.name) == ["mock_plain_get.json"])
            #expect(
                plan.routes.map(\.serialized) == [
                    #"{"name":"openapi api.yaml GET /quota","method":"GET","path":"/quota","response":{"status":200,"headers":{"X-Rate-Limit-Remaining":"5","ETag":"v1"},"json":{"used":1}}}"#
                ])
        }
    }
}
