import Foundation
import MockdCore
import MockdDisk
import MockdOpenAPI
import Testing
import TestSupport

/// Documents split over files give each operation as a `$ref` to its own file; the operation
/// is read from there, and the references inside it are relative to that file.
@Suite struct OperationReferenceTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /things:
            get: {$ref: "resources/things/list.yml"}
            post: {$ref: "resources/things/create.yml#/operation"}
        """

    static let files = [
        "resources/things/list.yml": """
        operationId: listThings
        parameters:
          - $ref: "parameters.yml#/limit"
        responses:
          "200":
            description: ok
            content:
              application/json:
                schema:
                  type: array
                  items: {$ref: "models/thing.yml"}
        """,
        "resources/things/parameters.yml": """
        limit: {name: limit, in: query, schema: {type: integer, maximum: 10}}
        """,
        "resources/things/models/thing.yml": """
        type: object
        required: [id, kind]
        properties:
          id: {type: integer, example: 7}
          kind: {$ref: "#/definitions/Kind"}
        definitions:
          Kind: {type: string, enum: [droplet, volume]}
        """,
        "resources/things/create.yml": """
        operation:
          requestBody:
            required: true
            content:
              application/json:
                schema: {$ref: "models/thing.yml"}
          responses:
            "201": {$ref: "#/responses/created"}
        responses:
          created:
            description: created
            content:
              application/json:
                example: {id: 1, kind: volume}
        """,
    ]

    @Test func anOperationGivenAsAReferenceIsServed() throws {
        try withDocument(Self.document, files: Self.files) { fixture throws in
            let list = fixture.answer("GET", "/things")
            #expect(list.status == 200)
            #expect(try list.json() == [["id": 7, "kind": "droplet"]])
            #expect(fixture.answer("GET", "/things?limit=11").status == 422)
            let created = fixture.answer(
                "POST", "/things", headers: [("Content-Type", "application/json")], body: #"{"id": 2, "kind": "volume"}"#)
            #expect(created.status == 201)
            #expect(try created.json() == ["id": 1, "kind": "volume"])
            let invalid = fixture.answer("POST", "/things", headers: [("Content-Type", "application/json")], body: #"{"id": 2}"#)
            #expect(invalid.status == 422)
            #expect(invalid.bodyText.contains("body.kind: required, missing"))
        }
    }

    @Test func aMissingOperationFileIsAnErrorNamingBoth() throws {
        let document = """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /gone:
                get: {$ref: "resources/gone.yml"}
            """
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("api.yaml", document)
        let result = MockDataLoader(
            files: DiskFiles(), root: folder.child("MockData"), operationSources: [OpenAPIDocument(path: folder.child("api.yaml"))]
        ).load()
        #expect(result.snapshot == nil)
        let messages = result.diagnostics.map(\.description)
        #expect(
            messages.contains("\(folder.child("api.yaml")): #/paths/~1gone/get (line 5): unresolved $ref resources/gone.yml"), "\(messages)"
        )
        #expect(
            messages.contains("\(folder.child("resources/gone.yml")): a $ref names this file: cannot read the file (does it exist?)"),
            "\(messages)")
    }
}
