import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Testing

/// One test's tearDown must not wipe the tests running beside it: resetting or clearing one
/// session leaves every other session whole, and a misspelt key or filter is refused rather
/// than acted on for everyone.
@Suite("Session isolation")
struct SessionIsolationTests {
    static func withServer<T>(_ body: (RouteServer) async throws -> T) async throws -> T {
        try await AdminHTTPTests.withServer(body)
    }

    @Test func resettingOneSessionLeavesTheOthersWhole() async throws {
        try await Self.withServer { server in
            for session in ["A", "B"] {
                #expect(
                    try await server.admin("PUT", "/__mockd/scenario", body: #"{"scenario": "empty", "session": "\#(session)"}"#).status
                        == 200)
                #expect(try await server.request("GET", "/api/seq", headers: ["X-Mock-Session": session]).text == "one")
            }
            let reset = try await server.admin("POST", "/__mockd/reset", body: #"{"session": "B"}"#)
            #expect(reset.status == 200)
            #expect(reset.object["session"] as? String == "B")
            // A keeps its scenario, its place in the sequence and its journal entries.
            #expect(try await server.admin("GET", "/__mockd/scenario?session=A").object["scenario"] as? String == "empty")
            #expect(try await server.request("GET", "/api/seq", headers: ["X-Mock-Session": "A"]).text == "two")
            #expect(AdminHTTPTests.paths(try await server.admin("GET", "/__mockd/requests?session=A").object) == ["/api/seq", "/api/seq"])
            // B starts over.
            #expect(try await server.admin("GET", "/__mockd/scenario?session=B").object["scenario"] as? String == "default")
            #expect(try await server.request("GET", "/api/seq", headers: ["X-Mock-Session": "B"]).text == "one")
            #expect(AdminHTTPTests.paths(try await server.admin("GET", "/__mockd/requests?session=B").object) == ["/api/seq"])
        }
    }

    @Test func clearingOneSessionsRequestsKeepsTheOthers() async throws {
        try await Self.withServer { server in
            _ = try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "A"])
            _ = try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "B"])
            _ = try await server.request("GET", "/api/users")
            let cleared = try await server.admin("DELETE", "/__mockd/requests?session=B")
            #expect(cleared.status == 200)
            #expect(cleared.object["cleared"] as? Int == 1)
            let left = try await server.admin("GET", "/__mockd/requests").object
            #expect(((left["requests"] as? [[String: Any]]) ?? []).map { $0["session"] as? String } == ["A", nil])
        }
    }

    @Test(
        arguments: [
            ("PUT", "/__mockd/scenario", #"{"scenario": "error", "sesion": "A"}"#),
            ("POST", "/__mockd/reset", #"{"sesion": "A"}"#),
            ("GET", "/__mockd/requests?methd=POST", nil),
            ("DELETE", "/__mockd/requests?sesion=A", nil),
            ("GET", "/__mockd/scenario?sesion=A", nil),
            ("GET", "/__mockd/events?after=0&wiat=1", nil),
            ("POST", "/__mockd/sessions", #"{"id": "A", "senario": "empty"}"#),
            ("POST", "/__mockd/stubs", #"{"method": "GET", "path": "/api/users", "response": {"json": []}, "sesion": "A"}"#),
        ] as [(String, String, String?)])
    func aMisspeltKeyIsRefusedAndNothingChanges(method: String, target: String, body: String?) async throws {
        try await Self.withServer { server in
            _ = try await server.request("GET", "/api/users")
            let refused = try await server.admin(method, target, body: body)
            #expect(refused.status == 400)
            #expect((refused.object["error"] as? String)?.contains("unknown") == true, "\(refused.object)")
            #expect((refused.object["known"] as? [String])?.isEmpty == false)
            #expect(try await server.admin("GET", "/__mockd/scenario").object["scenario"] as? String == "default")
            #expect(AdminHTTPTests.paths(try await server.admin("GET", "/__mockd/requests").object) == ["/api/users"])
        }
    }

    @Test func aResetWithoutABodyStillResetsEverything() async throws {
        try await Self.withServer { server in
            #expect(try await server.admin("PUT", "/__mockd/scenario", body: #"{"scenario": "empty", "session": "A"}"#).status == 200)
            _ = try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "A"])
            #expect(try await server.admin("POST", "/__mockd/reset").status == 200)
            #expect(try await server.admin("GET", "/__mockd/scenario?session=A").object["scenario"] as? String == "default")
            #expect(AdminHTTPTests.paths(try await server.admin("GET", "/__mockd/requests").object) == [])
        }
    }
}
