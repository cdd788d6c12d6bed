import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Testing

/// A test waits for its app's request instead of sleeping and polling:
/// `GET /__mockd/requests?…&count=N&wait=S` answers once N entries match, or after S seconds
/// with what there is and `"complete": false`.
@Suite("Waiting for requests")
struct RequestWaitTests {
    static func entries(_ object: [String: Any]) -> [[String: Any]] { (object["requests"] as? [[String: Any]]) ?? [] }

    @Test func aWaitIsAnsweredOnceTheRequestArrives() async throws {
        try await AdminHTTPTests.withServer { server in
            async let waited = server.admin("GET", "/__mockd/requests?session=sim-3&method=POST&path=/api/v1/*&count=1&wait=30")
            // Another session's request and a GET do not end the wait.
            _ = try await server.request("POST", "/api/v1/login", headers: ["X-Mock-Session": "sim-4"], body: Data("{}".utf8))
            _ = try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "sim-3"])
            _ = try await server.request(
                "POST", "/api/v1/login", headers: ["X-Mock-Session": "sim-3"], body: Data(#"{"user": "ada"}"#.utf8))
            let answer = try await waited
            #expect(answer.status == 200)
            #expect(answer.object["complete"] as? Bool == true)
            let entries = Self.entries(answer.object)
            #expect(entries.map { $0["session"] as? String } == ["sim-3"])
            #expect(entries.first?["body"] as? String == #"{"user": "ada"}"#)
        }
    }

    @Test func aWaitThatRunsOutSaysIncompleteWithWhatThereIs() async throws {
        try await AdminHTTPTests.withServer { server in
            _ = try await server.request("GET", "/api/users")
            let answer = try await server.admin("GET", "/__mockd/requests?path=/api/users&count=2&wait=1")
            #expect(answer.status == 200)
            #expect(answer.object["complete"] as? Bool == false)
            #expect(Self.entries(answer.object).count == 1)
        }
    }

    @Test func enoughAlreadyIsAnsweredAtOnceAndCountsBeforeTheLimit() async throws {
        try await AdminHTTPTests.withServer { server in
            for _ in 0..<3 { _ = try await server.request("GET", "/api/users") }
            let answer = try await server.admin("GET", "/__mockd/requests?path=/api/users&count=3&limit=1&wait=30")
            #expect(answer.object["complete"] as? Bool == true)
            #expect(Self.entries(answer.object).count == 1)
            // Without count there is no "complete": the answer is the listing it always was.
            #expect(try await server.admin("GET", "/__mockd/requests").object["complete"] == nil)
        }
    }

    @Test func theStatusFilterSelectsByTheAnswersStatus() async throws {
        try await AdminHTTPTests.withServer { server in
            _ = try await server.request("GET", "/api/users")
            _ = try await server.request("GET", "/api/nothing")
            let misses = try await server.admin("GET", "/__mockd/requests?status=404")
            #expect(AdminHTTPTests.paths(misses.object) == ["/api/nothing"])
        }
    }

    @Test(arguments: ["count=0", "count=two", "wait=-1", "status=abc"])
    func aMalformedArgumentIsA400NamingIt(_ argument: String) async throws {
        try await AdminHTTPTests.withServer { server in
            let refused = try await server.admin("GET", "/__mockd/requests?\(argument)")
            #expect(refused.status == 400)
            let name = String(argument.prefix { $0 != "=" })
            #expect((refused.object["error"] as? String)?.hasPrefix(name) == true, "\(refused.object)")
        }
    }
}
