import MockdCore
import MockdDisk
import MockdOpenAPI
import Testing
import TestSupport

/// Reading documents: recursion, $refs to other files, Swagger 2.0, JSON, problems reported.
@Suite struct DocumentTests {
    @Test func recursiveSchemasEndAtTheBoundWithTheShortestValidValue() throws {
        let document = """
            {"openapi": "3.0.0", "info": {"title": "t", "version": "1"},
             "paths": {"/tree": {"get": {"responses": {"200": {"description": "ok",
               "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}}},
             "components": {"schemas": {
               "Node": {"type": "object", "required": ["name", "children"], "properties": {
                 "name": {"type": "string"}, "parent": {"$ref": "#/components/schemas/Node"},
                 "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}},
               "A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}}}
            """
        try withDocument(document, name: "api.json") { fixture throws in
            let body = try fixture.answer("GET", "/tree").json()
            // Each node is two levels (object, array): two nodes have one child; at the bound, children is empty.
            var depth = 0
            var node = body
            while case .array(let children)? = node["children"], let child = children.first {
                #expect(node["parent"] == nil || depth < 4)
                node = child
                depth += 1
            }
            #expect(depth == 2)
            #expect(node == ["name": "string", "children": []])
        }
    }

    @Test func aReferenceToAFileBesideTheDocument() throws {
        let document = """
            openapi: 3.0.0
            info: {title: t, version: "1"}
            paths:
              /users:
                post:
                  requestBody: {content: {application/json: {schema: {$ref: "schemas/user.yaml#/User"}}}}
                  responses:
                    "200": {$ref: "responses.yaml"}
            """
        let files = [
            "schemas/user.yaml":
                "User:\n  type: object\n  required: [email]\n  properties:\n    email: {$ref: \"#/Email\"}\nEmail: {type: string, format: email}\n",
            "responses.yaml": "description: ok\ncontent:\n  application/json:\n    schema: {$ref: \"schemas/user.yaml#/User\"}\n",
        ]
        try withDocument(document, files: files) { fixture throws in
            let answer = fixture.answer("POST", "/users", headers: [("Content-Type", "application/json")], body: #"{"email": "x"}"#)
            #expect(answer.status == 422)
            #expect(answer.bodyText.contains(#"body.email: expected a email, found \"x\""#))
            let good = fixture.answer("POST", "/users", headers: [("Content-Type", "application/json")], body: #"{"email": "a@b.c"}"#)
            #expect(try good.json() == ["email": "user@example.com"])
        }
    }

    @Test func anUnresolvedReferenceIsReportedWithFileAndPointer() throws {
        let document = """
            openapi: 3.0.0
            info: {title: t, version: "1"}
            paths:
              /a:
                get:
                  responses:
                    "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Missing"}}}}
              /b:
                get:
                  responses:
                    "200": {$ref: "missing.yaml"}
            """
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("api.yaml", document)
        let result = MockDataLoader(
            files: DiskFiles(), root: folder.child("MockData"), operationSources: [OpenAPIDocument(path: folder.child("api.yaml"))]
        )
        .load()
        #expect(result.snapshot == nil)
        let messages = result.diagnostics.map(\.description)
        #expect(
            messages.contains(
                folder.child("api.yaml")
                    + ": #/paths/~1a/get/responses/200/content/application~1json/schema (line 7): unresolved $ref #/components/schemas/Missing"
            ))
        #expect(messages.contains(folder.child("api.yaml") + ": #/paths/~1b/get/responses/200 (line 11): unresolved $ref missing.yaml"))
        #expect(messages.contains(folder.child("missing.yaml") + ": a $ref names this file: cannot read the file (does it exist?)"))
    }

    @Test func swagger2IsConvertedAtLoad() throws {
        let loader = MockDataLoader(
            files: DiskFiles(), root: "/nonexistent",
            operationSources: [OpenAPIDocument(path: SharedDocuments.path("swagger2-petstore.yaml"))])
        let snapshot = try #require(loader.load().snapshot)
        let state = RuntimeState()
        let list = Resolver(snapshot: snapshot, state: state).resolve(MockRequest(method: "GET", path: "/v1/pets"))
        #expect(list.status == 200)
        #expect(list.source == "openapi swagger2-petstore.yaml GET /pets 200 generated")
        let bad = Resolver(snapshot: snapshot, state: state).resolve(
            MockRequest(method: "GET", path: "/v1/pets", query: [("limit", "many")]))
        #expect(bad.status == 400)
        #expect(bad.source.contains(#"query.limit: expected integer, found "many""#))
        #expect(
            snapshot.operations.operations.map { "\($0.method) \($0.pathTemplate)" } == [
                "GET /v1/pets", "POST /v1/pets", "GET /v1/pets/{petId}",
            ])
    }

    @Test func aDocumentWithOnlyWebhooksLoadsWithAWarning() throws {
        let result = MockDataLoader(
            files: DiskFiles(), root: "/nonexistent",
            operationSources: [OpenAPIDocument(path: SharedDocuments.path("webhook-example.yaml"))]
        ).load()
        let snapshot = try #require(result.snapshot)
        #expect(snapshot.operations.isEmpty)
        #expect(result.diagnostics.map(\.description).contains { $0.contains("no paths: nothing to serve") })
    }

    @Test func aBrokenDocumentIsAnErrorNamingTheFile() throws {
        let result = MockDataLoader(
            files: DiskFiles(), root: "/nonexistent", operationSources: [OpenAPIDocument(path: "/nonexistent/api.yaml")]
        ).load()
        #expect(result.snapshot == nil)
        #expect(result.diagnostics.map(\.description) == ["/nonexistent/api.yaml: cannot read the file (does it exist?)"])
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("api.yaml", "openapi: 4.0.0\n")
        let wrongVersion = MockDataLoader(
            files: DiskFiles(), root: folder.child("MockData"), operationSources: [OpenAPIDocument(path: folder.child("api.yaml"))]
        ).load()
        #expect(
            wrongVersion.diagnostics.map(\.description) == [
                folder.child("api.yaml")
                    + ": #/openapi (line 1): expected openapi 3.0.x or 3.1.x, swagger 2.0, or a Postman collection (info.schema), found \"4.0.0\""
            ])
    }
}

@Suite struct CheckAndReloadTests {
    @Test func checkReportsStructureProblemsFoundByOpenAPIKit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            "api.yaml", "openapi: 3.0.0\ninfo: {title: t}\npaths:\n  /a:\n    get:\n      responses: {'200': {description: ok}}\n")
        let checked = MockDataLoader(
            files: DiskFiles(), root: folder.child("MockData"),
            operationSources: [OpenAPIDocument(path: folder.child("api.yaml"), checkExamples: true)]
        ).load()
        #expect(
            checked.diagnostics.map(\.description) == [
                "warning: " + folder.child("api.yaml")
                    + ": #/info (line 2): OpenAPIKit: Expected to find `version` key in Document.info but it is missing."
            ])
        #expect(checked.snapshot?.operations.operations.count == 1)
    }

    @Test func checkWarnsAboutExamplesThatViolateTheirSchema() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            "api.yaml",
            """
            openapi: 3.0.0
            info: {title: t, version: "1"}
            paths:
              /a:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: {type: object, properties: {n: {type: integer}}}
                          examples: {bad: {value: {n: "x"}}}
            """)
        let checked = MockDataLoader(
            files: DiskFiles(), root: folder.child("MockData"),
            operationSources: [OpenAPIDocument(path: folder.child("api.yaml"), checkExamples: true)]
        ).load()
        #expect(
            checked.diagnostics.map(\.description) == [
                "warning: " + folder.child("api.yaml")
                    + ": #/paths/~1a/get/responses/200/content/application~1json (line 11): the example violates its schema: examples.bad.n: expected integer, found \"x\""
            ])
        // Serving does not spend time on it.
        #expect(
            MockDataLoader(
                files: DiskFiles(), root: folder.child("MockData"), operationSources: [OpenAPIDocument(path: folder.child("api.yaml"))]
            ).load()
                .diagnostics.isEmpty)
    }
}

/// What the watcher watches for a document: its folder, and the folder of every file its
/// `$ref`s name outside it (`../common/pet.yaml`), so an edit there reloads as well.
@Suite struct WatchedPathsTests {
    @Test func theFoldersOfReferencedFilesOutsideTheDocumentsAreWatched() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write([
            "spec/api.yaml": """
            openapi: 3.0.0
            info: {title: t, version: "1"}
            paths:
              /pets:
                get:
                  responses:
                    "200": {description: ok, content: {application/json: {schema: {$ref: "../common/pet.yaml"}}}}
                    "404": {$ref: "parts/missing.yaml"}
            """,
            "spec/parts/missing.yaml": "description: gone\n",
            "common/pet.yaml": "type: object\nproperties:\n  tag: {$ref: '../shared/tag.yaml'}\n",
            "shared/tag.yaml": "type: string\n",
        ])
        let document = OpenAPIDocument(path: folder.child("spec/api.yaml"))
        #expect(document.watchedPaths == [folder.child("spec")])
        let loaded = MockDataLoader(files: DiskFiles(), root: folder.child("MockData"), operationSources: [document]).load()
        #expect(loaded.snapshot != nil, "\(loaded.diagnostics)")
        // spec/parts is inside spec, which is watched with everything under it.
        #expect(document.watchedPaths == [folder.child("spec"), folder.child("common"), folder.child("shared")])
    }
}
