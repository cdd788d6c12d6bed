import Foundation
import Testing
import TestSupport

/// `POST /__mockd/mocks` on a real mockd serving `--openapi`: a mock the document contradicts is
/// refused with its violations and writes nothing; one that follows it is written and served.
@Suite struct ContractMockTests {
    static let document = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /api/users/{id}:
            get:
              responses:
                "200":
                  description: one user
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [id, name]
                        properties: {id: {type: integer}, name: {type: string}}
        """

    static func create(port: Int, _ json: String) async throws -> RawResponse {
        try await blocking {
            try RawConnection.exchange(
                port: port, "POST", "/__mockd/mocks", headers: [("Content-Type", "application/json")], body: Array(json.utf8))
        }
    }

    @Test func anOffContractMockIsRefusedAndWritesNothing() async throws {
        try await withTemporaryFolder(["MockData/README.txt": "mocks", "api.yaml": Self.document]) { folder async throws in
            try await FirstHourTests.withMockd(
                ["--root", "MockData", "--no-routes", "--port", "0", "--openapi", "api.yaml"], in: folder.path
            ) { _, startup async throws in
                let refused = try await Self.create(
                    port: startup.port, #"{"method": "GET", "path": "/api/users/7", "body": "{\"id\": \"7\"}"}"#)
                #expect(refused.status == 422, "\(refused.text)")
                let answer = try #require(try JSONSerialization.jsonObject(with: Data(refused.text.utf8)) as? [String: Any])
                #expect(answer["checkedAgainst"] as? String == "openapi api.yaml GET /api/users/{id} 200")
                #expect(answer["violations"] as? [String] == ["body.name: required, missing", #"body.id: expected integer, found "7""#])
                #expect(!FileManager.default.fileExists(atPath: folder.child("MockData/mock_api_users_7_get.json")))
                // The document still answers.
                #expect(try await FirstHourTests.send(port: startup.port, "/api/users/7").status == 200)

                let created = try await Self.create(
                    port: startup.port, #"{"method": "GET", "path": "/api/users/7", "body": "{\"id\": 7, \"name\": \"Ada\"}"}"#)
                #expect(created.status == 201, "\(created.text)")
                let served = try await FirstHourTests.send(port: startup.port, "/api/users/7")
                #expect(served.text == "{\"id\": 7, \"name\": \"Ada\"}\n")
                #expect(served.header("X-Mockd-Source")?.hasPrefix("file mock_api_users_7_get.json") == true)
            }
        }
    }

    /// `mockd check --openapi`: a hand-written file that drifted from the document is named with
    /// the place in it, and fails the check (a warning: `--no-strict` lets it pass).
    @Test func checkNamesAFileThatDriftedAndStrictFailsOnIt() async throws {
        try await withTemporaryFolder([
            "MockData/mock_api_users_7_get.json": #"{"id": 7, "name": 42}"#,
            "MockData/mock_api_users_8_get.json": #"{"id": 8, "name": "Bo"}"#,
            "api.yaml": Self.document,
        ]) { folder async throws in
            let arguments = ["check", "--root", "MockData", "--no-routes", "--openapi", "api.yaml"]
            let checked = try await runProcess(CLITests.executable, arguments, currentDirectory: folder.path)
            #expect(checked.status == 1, "\(checked)")
            let output = checked.stdout + checked.stderr
            #expect(
                output.contains(
                    "MockData/mock_api_users_7_get.json: name: breaks openapi api.yaml GET /api/users/{id} 200: expected string, found 42"),
                "\(checked)")
            #expect(!output.contains("mock_api_users_8_get.json"), "\(checked)")
            let lenient = try await runProcess(CLITests.executable, arguments + ["--no-strict"], currentDirectory: folder.path)
            #expect(lenient.status == 0, "\(lenient)")
        }
    }
}
