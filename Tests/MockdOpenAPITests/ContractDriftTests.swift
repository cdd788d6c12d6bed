import Foundation
import MockdCore
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
}
