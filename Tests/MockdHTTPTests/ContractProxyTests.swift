import Foundation
import Testing
import TestSupport

/// `--contract` on real mockd processes: a document only checked against. Mock files are held to
/// it (`mockd check`), and with `--proxy` the upstream's answers are validated without being
/// changed — an upstream mockd here answers one user on the contract and one off it.
@Suite struct ContractProxyTests {
    static let upstreamRoutes = #"""
        {"routes": [
          {"method": "GET", "path": "/api/users/1", "response": {"json": {"id": 1, "name": "Ann"}}},
          {"method": "GET", "path": "/api/users/:id", "response": {"json": {"id": "{{path.id}}", "name": 7}, "template": true}},
          {"method": "GET", "path": "/api/other", "response": {"json": {"anything": true}}}
        ]}
        """#

    static func get(_ port: Int, _ path: String) async throws -> RawResponse {
        try await blocking { try RawConnection.exchange(port: port, "GET", path) }
    }

    @Test func anUpstreamAnswerOffTheContractIsMarkedNotChanged() async throws {
        try await withTemporaryFolder([
            "upstream/MockData/README.txt": "answers come from routes", "upstream/routes/users.json": Self.upstreamRoutes,
            "local/MockData/README.txt": "nothing mocked: every request goes upstream", "api.yaml": ContractMockTests.document,
        ]) { folder async throws in
            try await FirstHourTests.withMockd(
                ["--root", "MockData", "--routes", "routes", "--port", "0"], in: folder.child("upstream")
            ) { _, upstream async throws in
                try await FirstHourTests.withMockd(
                    [
                        "--root", "MockData", "--no-routes", "--port", "0", "--contract", "../api.yaml", "--proxy",
                        "http://127.0.0.1:\(upstream.port)",
                    ],
                    in: folder.child("local")
                ) { _, local async throws in
                    let off = try await Self.get(local.port, "/api/users/5")
                    #expect(off.status == 200)
                    #expect(off.text == #"{"id":"5","name":7}"#, "the upstream's bytes, unchanged")
                    #expect(
                        off.header("X-Mockd-Warning")
                            == #"the upstream's answer breaks openapi api.yaml GET /api/users/{id} 200: body.id: expected integer, found "5" (and 1 more)"#,
                        "\(off)")
                    #expect(off.header("X-Mockd-Source")?.hasSuffix("(off contract)") == true, "\(off)")
                    let on = try await Self.get(local.port, "/api/users/1")
                    #expect(on.status == 200 && on.header("X-Mockd-Warning") == nil, "\(on)")
                    #expect(on.header("X-Mockd-Source")?.contains("off contract") == false, "\(on)")
                    // Undocumented: nothing to check against.
                    #expect(try await Self.get(local.port, "/api/other").header("X-Mockd-Warning") == nil)
                    let journal = try await Self.get(local.port, "/__mockd/requests?path=/api/users/5")
                    #expect(journal.text.contains(#"(off contract)"#), "\(journal)")
                }
            }
        }
    }

    /// The contract answers nothing: a documented request nothing mocks is a 404, not an example.
    @Test func aContractAnswersNothingAndHoldsTheMocksInCheck() async throws {
        try await withTemporaryFolder([
            "MockData/mock_api_users_7_get.json": #"{"id": 7, "name": 42}"#, "api.yaml": ContractMockTests.document,
        ]) { folder async throws in
            try await FirstHourTests.withMockd(
                ["--root", "MockData", "--no-routes", "--port", "0", "--contract", "api.yaml"], in: folder.path
            ) { _, local async throws in
                #expect(try await Self.get(local.port, "/api/users/3").status == 404)
                #expect(try await Self.get(local.port, "/api/users/7").text == #"{"id": 7, "name": 42}"#)
                // A stub off the contract is added and served, with what breaks it said.
                let stub = #"{"method": "GET", "path": "/api/users/9", "response": {"json": {"id": "nine", "name": "Al"}}}"#
                let added = try await blocking {
                    try RawConnection.exchange(port: local.port, "POST", "/__mockd/stubs", body: Array(stub.utf8))
                }
                #expect(added.status == 201, "\(added)")
                #expect(
                    added.text.contains(
                        #"stub.response: breaks openapi api.yaml GET /api/users/{id} 200: body.id: expected integer, found \"nine\""#),
                    "\(added)")
                #expect(added.header("X-Mockd-Warning")?.hasPrefix("stub.response: breaks") == true, "\(added)")
                #expect(try await Self.get(local.port, "/api/users/9").text.contains("nine"))
            }
            let checked = try await runProcess(
                CLITests.executable, ["check", "--root", "MockData", "--no-routes", "--contract", "api.yaml"], currentDirectory: folder.path
            )
            #expect(checked.status == 1, "\(checked)")
            #expect(
                (checked.stdout + checked.stderr).contains(
                    "MockData/mock_api_users_7_get.json: name: breaks openapi api.yaml GET /api/users/{id} 200: expected string, found 42"),
                "\(checked)")
        }
    }

    /// `mockd check --coverage`: a documented operation nothing mocks, and mocks no document has.
    @Test func coverageNamesTheOperationsNotMockedAndTheMocksUndocumented() async throws {
        let document =
            ContractMockTests.document + """

                  /api/teams:
                    get:
                      responses:
                        "200": {description: teams}
                """
        try await withTemporaryFolder([
            "MockData/mock_api_users_7_get.json": #"{"id": 7, "name": "Bo"}"#, "MockData/mock_api_stats_get.json": "{}",
            "routes/extra.json": #"{"routes": [{"method": "POST", "path": "/api/users/:id", "response": {"status": 204}}]}"#,
            "api.yaml": document,
        ]) { folder async throws in
            let arguments = ["check", "--root", "MockData", "--routes", "routes", "--contract", "api.yaml"]
            let plain = try await runProcess(CLITests.executable, arguments, currentDirectory: folder.path)
            #expect(plain.status == 0, "without --coverage, nothing is said: \(plain)")
            let checked = try await runProcess(CLITests.executable, arguments + ["--coverage"], currentDirectory: folder.path)
            #expect(checked.status == 1, "\(checked)")
            let lines = (checked.stdout + checked.stderr).split(separator: "\n").map(String.init)
            #expect(
                lines.contains { $0.contains("MockData/mock_api_stats_get.json: undocumented: openapi api.yaml has no GET operation") },
                "\(lines)")
            #expect(
                lines.contains {
                    $0.contains("routes/extra.json: routes[0]: undocumented: openapi api.yaml has no operation for POST /api/users/:id")
                }, "\(lines)")
            #expect(lines.contains { $0.contains("not mocked: openapi api.yaml GET /api/teams") }, "\(lines)")
            #expect(!lines.contains { $0.contains("not mocked: openapi api.yaml GET /api/users/{id}") }, "\(lines)")
        }
    }

    /// A resource's seed is held to the document as a mock file is: each item to `GET …/{id}`.
    @Test func aResourcesSeedIsHeldToTheDocument() async throws {
        try await withTemporaryFolder([
            "MockData/users.json": #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": 2}]"#,
            "routes/users.json": #"{"routes": [{"resource": "/api/users", "seed": "users.json"}]}"#,
            "api.yaml": ContractMockTests.document,
        ]) { folder async throws in
            let checked = try await runProcess(
                CLITests.executable, ["check", "--root", "MockData", "--routes", "routes", "--contract", "api.yaml"],
                currentDirectory: folder.path)
            #expect(checked.status == 1, "\(checked)")
            let output = checked.stdout + checked.stderr
            #expect(
                output.contains("MockData/users.json: [1].name: breaks openapi api.yaml GET /api/users/{id} 200: expected string, found 2"),
                "\(checked)")
            #expect(!output.contains("[0]"), "\(checked)")
        }
    }
}
