import Foundation
import MockdCore
import MockdDisk
import MockdOpenAPI
import Testing
import TestSupport

/// Mock files beside an OpenAPI document, held to the schema of the answer each gives: drift is a
/// load warning with the file, the place in it and what the schema expects.
@Suite struct ContractDriftTests {
    static func drift(_ files: [String: String]) throws -> [String] {
        try withDocument(ContractCheckTests.document, files: files) { fixture in
            fixture.diagnostics.filter { $0.message.contains("breaks openapi") }.map {
                $0.description.replacingOccurrences(of: fixture.folder.path + "/", with: "")
            }
        }
    }

    @Test func aFileThatBreaksItsAnswersSchemaIsAWarningWithItsPlace() throws {
        let warnings = try Self.drift(["MockData/mock_pets_7_get.json": #"{"id": "7", "name": "Rex"}"#])
        #expect(
            warnings == [
                #"warning: MockData/mock_pets_7_get.json: id: breaks openapi api.yaml GET /pets/{id} 200: expected integer, found "7""#
            ])
    }

    @Test func aFileThatFollowsItIsNot() throws {
        #expect(try Self.drift(["MockData/mock_pets_7_get.json": #"{"id": 7, "name": "Rex"}"#]) == [])
        // Not documented, or not JSON: nothing to hold it to.
        #expect(try Self.drift(["MockData/mock_cats_7_get.json": #"{"id": "x"}"#, "MockData/mock_notes_get.json": #"{"a": 1}"#]) == [])
    }

    @Test func statusesAndScenariosAreCheckedAgainstTheirOwnAnswer() throws {
        let warnings = try Self.drift([
            "MockData/mock_pets_7_get.404.json": #"{"message": "gone"}"#,
            "MockData/scenarios/broken/mock_pets_7_get.json": #"{"id": 7}"#,
        ])
        #expect(
            warnings == [
                "warning: MockData/mock_pets_7_get.404.json: title: breaks openapi api.yaml GET /pets/{id} 4XX: required, missing",
                "warning: MockData/scenarios/broken/mock_pets_7_get.json: name: breaks openapi api.yaml GET /pets/{id} 200: required, missing",
            ])
    }

    @Test func aBodyOfTheWrongKindIsPlacedAtTheFile() throws {
        let warnings = try Self.drift(["MockData/mock_pets_7_get.json": "[1, 2]"])
        #expect(
            warnings == [
                "warning: MockData/mock_pets_7_get.json: breaks openapi api.yaml GET /pets/{id} 200: expected object, found an array"
            ])
    }

    @Test func manyViolationsAreCountedPastTheFirstFive() throws {
        let pets = (0..<8).map { #"{"id": "\#($0)", "name": "n"}"# }.joined(separator: ", ")
        let document = ContractCheckTests.document.replacingOccurrences(
            of: "schema: {$ref: \"#/components/schemas/Pet\"}", with: "schema: {type: array, items: {$ref: \"#/components/schemas/Pet\"}}")
        let warnings = try withDocument(document, files: ["MockData/mock_pets_7_get.json": "[\(pets)]"]) { fixture in
            fixture.diagnostics.filter { $0.message.contains("breaks openapi") }.map {
                $0.description.replacingOccurrences(of: fixture.folder.path + "/", with: "")
            }
        }
        #expect(warnings.count == 6, "\(warnings)")
        #expect(warnings.last == "warning: MockData/mock_pets_7_get.json: breaks openapi api.yaml GET /pets/{id} 200 in 3 more places")
    }

    /// A route table's JSON answers beside the document: held to it as files are, placed in the table.
    @Test func aRouteAnswerThatBreaksItsSchemaIsAWarningPlacedInTheTable() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("api.yaml", ContractCheckTests.document)
        try folder.write([
            "MockData/README.txt": "mocks",
            "routes/pets.json": """
            {"routes": [
              {"method": "GET", "path": "/pets/:id", "response": {"json": {"id": 1, "name": "Rex"}}},
              {"method": "GET", "path": "/pets/:id", "scenario": "odd", "responses": [{"json": {"id": 1, "name": "Rex"}}, {"status": 404, "json": {}}]},
              {"method": "GET", "path": "/pets/:id", "scenario": "tpl", "response": {"json": {"id": "{{path.id}}"}, "template": true}},
              {"method": "GET", "path": "/cats/:id", "response": {"json": {"id": "x"}}}
            ]}
            """,
        ])
        let result = MockDataLoader(
            files: DiskFiles(), root: folder.child("MockData"), routes: folder.child("routes"),
            operationSources: [OpenAPIDocument(path: folder.child("api.yaml"))]
        ).load()
        let warnings = result.diagnostics.filter { $0.message.contains("breaks openapi") }.map {
            $0.description.replacingOccurrences(of: folder.path + "/", with: "")
        }
        // The second answer of the sequence breaks the 4XX schema; a template and an undocumented path are not checked.
        #expect(
            warnings == [
                "warning: routes/pets.json: routes[1].responses[1]: breaks openapi api.yaml GET /pets/{id} 4XX: body.title: required, missing"
            ])
        #expect(result.snapshot != nil)
    }
}
