import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import InMemoryLogging
import Logging
import MockdCore
import MockdHTTP
import Testing
import TestSupport

/// The naming rule over real HTTP: every row of the table, the headers, the 404.
@Suite("Files by convention over HTTP")
struct ConventionTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let method: String
        /// The request target exactly as sent on the wire.
        let target: String
        let file: String
        var testDescription: String { "\(method) \(target) → \(file)" }
    }

    static let rows: [Row] = [
        Row(method: "GET", target: "/api/users", file: "mock_api_users_get.json"),
        Row(method: "GET", target: "/api/user/123", file: "mock_api_user_123_get.json"),
        Row(method: "POST", target: "/api/v1/sleep", file: "mock_api_v1_sleep_post.json"),
        Row(method: "GET", target: "/api/users?page=2", file: "mock_api_users_get.json"),
        Row(method: "GET", target: "/api/users/", file: "mock_api_users_get.json"),
        Row(method: "GET", target: "/api/users/?page=2&sort=name", file: "mock_api_users_get.json"),
        // Percent-decoded before naming, as URL.path gives it.
        Row(method: "GET", target: "/api/us%65rs", file: "mock_api_users_get.json"),
        Row(method: "GET", target: "/api%2Fusers", file: "mock_api_users_get.json"),
        Row(method: "GET", target: "/a%2Fb", file: "mock_a_b_get.json"),
        Row(method: "GET", target: "/caf%C3%A9", file: "mock_café_get.json"),
        Row(method: "GET", target: "/my%20file", file: "mock_my file_get.json"),
        // `+` is a plus in a path (only a query decodes it as a space), as URL.path keeps it.
        Row(method: "GET", target: "/a+b", file: "mock_a+b_get.json"),
        Row(method: "GET", target: "/a%2Bb", file: "mock_a+b_get.json"),
        Row(method: "GET", target: "/api/v1.2/report.final", file: "mock_api_v1.2_report.final_get.json"),
        Row(method: "GET", target: "/", file: "mock__get.json"),
        Row(method: "GET", target: "/?x=1", file: "mock__get.json"),
    ]

    @Test("exact bytes on the wire", arguments: rows)
    func convention_ServesTheFile_ForTheRawRequest(row: Row) async throws {
        try await withTestServer { server in
            let response = try await server.raw(row.method, row.target, body: row.method == "POST" ? Array("{}".utf8) : [])
            #expect(response.status == 200, "\(response)")
            #expect(response.body == Fixture.body(row.file))
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.header("X-Mockd-Source") == "file \(Fixture.path(of: row.file))")
            #expect(response.header("Content-Length") == String(Fixture.body(row.file).count))
        }
    }

    @Test(
        "through URLSession",
        arguments: [
            Row(method: "GET", target: "/api/users", file: "mock_api_users_get.json"),
            Row(method: "GET", target: "/api/user/123", file: "mock_api_user_123_get.json"),
            Row(method: "POST", target: "/api/v1/sleep", file: "mock_api_v1_sleep_post.json"),
            Row(method: "GET", target: "/api/users?page=2", file: "mock_api_users_get.json"),
            Row(method: "GET", target: "/api/users/", file: "mock_api_users_get.json"),
            Row(method: "GET", target: "/api/us%65rs", file: "mock_api_users_get.json"),
            Row(method: "GET", target: "/caf%C3%A9", file: "mock_café_get.json"),
        ])
    func convention_ServesTheFile_ThroughURLSession(row: Row) async throws {
        try await withTestServer { server in
            let response = try await server.request(row.method, row.target, body: row.method == "POST" ? Data("{}".utf8) : nil)
            #expect(response.status == 200)
            #expect(response.body == Fixture.body(row.file))
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.header("X-Mockd-Source") == "file \(Fixture.path(of: row.file))")
        }
    }

    @Test func convention_HEADHasTheGetHeadersAndNoBody() async throws {
        try await withTestServer { server in
            let get = try await server.raw("GET", "/api/users")
            // HEAD then GET on one keep-alive connection: if the HEAD answer carried body bytes,
            // they would be read as the start of the second response.
            let (head, next) = try await server.withRawConnection { connection in
                try connection.send(RawConnection.request("HEAD", "/api/users"))
                let head = try connection.readResponse(head: true)
                try connection.send(RawConnection.request("GET", "/api/user/123"))
                return (head, try connection.readResponse())
            }
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "application/json; charset=utf-8")
            #expect(head.header("X-Mockd-Source") == "file users/mock_api_users_get.json")
            #expect(head.header("Content-Length") == get.header("Content-Length"))
            #expect(next.status == 200, "\(next)")
            #expect(next.body == Fixture.body("mock_api_user_123_get.json"))

            let viaSession = try await server.request("HEAD", "/api/users")
            #expect(viaSession.status == 200)
            #expect(viaSession.body.isEmpty)
            #expect(viaSession.header("X-Mockd-Source") == "file users/mock_api_users_get.json")
        }
    }

    @Test func convention_KeepsTheConnectionAliveAcrossRequests() async throws {
        try await withTestServer { server in
            let responses = try await server.withRawConnection { connection in
                var responses: [RawResponse] = []
                for target in ["/api/users", "/api/user/123", "/api/nothing", "/api/users?page=3"] {
                    try connection.send(RawConnection.request("GET", target))
                    responses.append(try connection.readResponse())
                }
                return responses
            }
            #expect(responses.map(\.status) == [200, 200, 404, 200])
            #expect(responses[1].body == Fixture.body("mock_api_user_123_get.json"))
        }
    }

    @Test func convention_ScenarioHeaderPicksTheOverlay() async throws {
        try await withTestServer { server in
            let overlay = try await server.request("GET", "/api/users", headers: ["X-Mock-Scenario": "empty"])
            #expect(overlay.status == 200)
            #expect(overlay.body == Fixture.bytes("scenarios/empty/mock_api_users_get.json"))
            #expect(overlay.header("X-Mockd-Source") == "file scenarios/empty/mock_api_users_get.json")
            // No overlay for this one in `empty`: the base file answers.
            let base = try await server.request("GET", "/api/user/123", headers: ["X-Mock-Scenario": "empty"])
            #expect(base.body == Fixture.body("mock_api_user_123_get.json"))
            // And without the header, the base file.
            let plain = try await server.request("GET", "/api/users")
            #expect(plain.body == Fixture.body("mock_api_users_get.json"))
        }
    }

    @Test func convention_RuntimeScenarioOfTheServerApplies() async throws {
        let runtime = RuntimeState(startupScenario: "empty")
        try await withTestServer(runtime: runtime) { server in
            let response = try await server.request("GET", "/api/users")
            #expect(response.body == Fixture.bytes("scenarios/empty/mock_api_users_get.json"))
            let overridden = try await server.request("GET", "/api/users", headers: ["X-Mock-Scenario": "default"])
            #expect(overridden.body == Fixture.body("mock_api_users_get.json"))
        }
    }

    @Test func convention_AMissIsA404ReportNamingTheFile() async throws {
        try await withTestServer { server in
            let response = try await server.request("GET", "/api/nothing/here?page=1")
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.header("X-Mockd-Source") == "404")
            let report = try response.jsonObject()
            #expect(report["file"] as? String == "mock_api_nothing_here_get.json")
            #expect(report["path"] as? String == "/api/nothing/here")
            #expect(report["scenario"] as? String == "default")
            let lookedFor = try #require(report["lookedFor"] as? [String])
            #expect(lookedFor.contains(server.root + "/mock_api_nothing_here_get.json"), "\(lookedFor)")
        }
    }

    @Test func convention_AMissNamesOtherMethodsAndNearNames() async throws {
        try await withTestServer { server in
            let wrongMethod = try await server.request("DELETE", "/api/users").jsonObject()
            let other = try #require(wrongMethod["otherMethods"] as? [[String: String]])
            #expect(other.map { $0["file"] } == ["mock_api_users_get.json"])
            let typo = try await server.request("GET", "/api/user").jsonObject()
            #expect((typo["nearNames"] as? [String])?.contains("mock_api_users_get.json") == true)
        }
    }

    @Test func convention_HEADMissIsA404WithoutBody() async throws {
        try await withTestServer { server in
            let response = try await server.raw("HEAD", "/api/nothing")
            #expect(response.status == 404)
            #expect(response.body.isEmpty)
            #expect(response.header("X-Mockd-Source") == "404")
        }
    }

    /// Files that are not mock names are never served by the convention, whatever the URL.
    @Test func convention_DoesNotServeOtherFilesOrEscapeTheRoot() async throws {
        try await withTestServer { server in
            for target in ["/bodies/user.json", "/users/mock_api_users_get.json", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd"] {
                let response = try await server.raw("GET", target)
                #expect(response.status == 404 || response.status == 400, "\(target): \(response)")
                #expect(!response.text.contains("root:"), "\(target)")
                #expect(response.body != Fixture.bytes("bodies/user.json"))
            }
        }
    }

    @Test func accessLog_OneLinePerRequestWithWhatAnswered() async throws {
        let recorder = InMemoryLogHandler()
        try await withTestServer(logger: Logger(label: "mockd-test", factory: { _ in recorder })) { server in
            _ = try await server.raw("GET", "/api/users?page=2")
            _ = try await server.raw("GET", "/api/nothing")
            let deadline = Deadline(eventDeadline)
            var requests: [[String: String]] = []
            repeat {
                requests = recorder.entries.filter { $0.message == "request" }.compactMap { entry in
                    guard case .stringConvertible(let value)? = entry.metadata[AccessRecord.metadataKey],
                        let record = value as? AccessRecord
                    else { return nil }
                    return [
                        "method": record.method, "path": record.path, "status": String(record.status), "source": record.source,
                        "durationMs": String(Double(record.durationMicroseconds) / 1000),
                    ]
                }
                if requests.count < 2 { await Task.yield() }
            } while requests.count < 2 && !deadline.hasPassed
            #expect(requests.count == 2)
            let hit = try #require(requests.first { $0["path"] == "/api/users" })
            #expect(hit["method"] == "GET")
            #expect(hit["status"] == "200")
            #expect(hit["source"] == "file users/mock_api_users_get.json")
            #expect(hit["durationMs"] != nil)
            let miss = try #require(requests.first { $0["path"] == "/api/nothing" })
            #expect(miss["status"] == "404")
            #expect(miss["source"] == "404")
        }
    }
}
