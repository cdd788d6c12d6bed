import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Testing

/// A test says "for me, GET /api/users answers this" without writing into the shared mock
/// folder: `POST /__mockd/stubs` adds a route in front of everything, for its session or for
/// everyone, until it is deleted or its session reset.
@Suite("Stubs from a test")
struct StubTests {
    static let usersStub =
        #"{"method": "GET", "path": "/api/users", "response": {"status": 201, "headers": {"X-Stub": "yes"}, "json": {"stubbed": true}}, "session": "sim-3"}"#

    @Test func aSessionsStubAnswersBeforeTheFileForThatSessionOnly() async throws {
        try await AdminHTTPTests.withServer { server in
            let added = try await server.admin("POST", "/__mockd/stubs", body: Self.usersStub)
            #expect(added.status == 201)
            let id = try #require(added.object["id"] as? String)
            #expect(added.object["origin"] as? String == "stub#\(id)")
            #expect(added.object["session"] as? String == "sim-3")

            let stubbed = try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "sim-3"])
            #expect(stubbed.status == 201)
            #expect(stubbed.text == #"{"stubbed":true}"#)
            #expect(stubbed.header("X-Stub") == "yes")
            #expect(stubbed.header("X-Mockd-Source") == "stub#\(id)")
            // Another session, and no session, still get the file.
            let r1 = try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "sim-4"])
            #expect(r1.text.contains("Ada"))
            let r2 = try await server.request("GET", "/api/users")
            #expect(r2.text.contains("Ada"))
            // The journal and the sources say where the answer came from.
            let journal = try await server.admin("GET", "/__mockd/requests?session=sim-3").object
            #expect(RequestWaitTests.entries(journal).first?["source"] as? String == "stub#\(id)")
            let sources = (try await server.admin("GET", "/__mockd/sources").object["sources"] as? [[String: Any]]) ?? []
            #expect(sources.first?["origin"] as? String == "stub#\(id)")
            #expect(sources.first?["kind"] as? String == "stub")
        }
    }

    /// A stub's body `"file"` is read under the root by the admin executor, off the server's
    /// threads; what it read is served, and a file that is not there is refused with its place.
    @Test func aStubsBodyFileIsReadUnderTheRootAndServed() async throws {
        try await AdminHTTPTests.withServer { server in
            let added = try await server.admin(
                "POST", "/__mockd/stubs",
                body: #"{"method": "GET", "path": "/api/profile", "response": {"file": "users/mock_api_users_get.json"}}"#)
            #expect(added.status == 201, "\(added.object)")
            let served = try await server.request("GET", "/api/profile")
            #expect(served.status == 200)
            #expect(served.text == #"[{"id": 1, "name": "Ada"}]"#)
            #expect(served.header("Content-Type")?.hasPrefix("application/json") == true)

            let missing = try await server.admin(
                "POST", "/__mockd/stubs", body: #"{"method": "GET", "path": "/api/none", "response": {"file": "bodies/none.json"}}"#)
            #expect(missing.status == 400)
            let errors = (missing.object["errors"] as? [String]) ?? []
            #expect(
                errors.contains { $0.hasPrefix("stub.response.file: no such file: ") && $0.hasSuffix("/bodies/none.json") }, "\(errors)")
            #expect(try await server.request("GET", "/api/none").status == 404, "a refused stub answers nothing")
        }
    }

    @Test func aStubWithoutASessionAnswersEveryoneAndTheSessionsOwnComesFirst() async throws {
        try await AdminHTTPTests.withServer { server in
            let r3 = try await server.admin(
                "POST", "/__mockd/stubs", body: #"{"method": "GET", "path": "/api/users", "response": {"text": "everyone"}}"#)
            #expect(r3.status == 201)
            let r4 = try await server.admin("POST", "/__mockd/stubs", body: Self.usersStub)
            #expect(r4.status == 201)
            let r5 = try await server.request("GET", "/api/users")
            #expect(r5.text == "everyone")
            let r6 = try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "sim-3"])
            #expect(r6.status == 201)
        }
    }

    @Test func aSessionsResetRemovesItsStubsAndDeleteRemovesOne() async throws {
        try await AdminHTTPTests.withServer { server in
            let r7 = try await server.admin("POST", "/__mockd/stubs", body: Self.usersStub)
            #expect(r7.status == 201)
            let everyone = try await server.admin(
                "POST", "/__mockd/stubs", body: #"{"method": "GET", "path": "/api/other", "response": {"text": "x"}}"#)
            let r8 = try await server.admin("POST", "/__mockd/reset", body: #"{"session": "sim-3"}"#)
            #expect(r8.status == 200)
            let r9 = try await server.request("GET", "/api/users", headers: ["X-Mock-Session": "sim-3"])
            #expect(r9.text.contains("Ada"))
            let listed = (try await server.admin("GET", "/__mockd/stubs").object["stubs"] as? [[String: Any]]) ?? []
            #expect(listed.map { $0["path"] as? String } == ["/api/other"])
            let id = try #require(everyone.object["id"] as? String)
            let r10 = try await server.admin("DELETE", "/__mockd/stubs/\(id)")
            #expect(r10.status == 200)
            let r11 = try await server.request("GET", "/api/other")
            #expect(r11.status == 404)
            let r12 = try await server.admin("DELETE", "/__mockd/stubs/\(id)")
            #expect(r12.status == 404)
        }
    }

    @Test func aStubSurvivesAReload() async throws {
        try await AdminHTTPTests.withServer { server in
            let r13 = try await server.admin(
                "POST", "/__mockd/stubs", body: #"{"method": "GET", "path": "/api/users", "response": {"text": "stub"}}"#)
            #expect(r13.status == 201)
            let r14 = try await server.admin("POST", "/__mockd/reload")
            #expect(r14.status == 200)
            let r15 = try await server.request("GET", "/api/users")
            #expect(r15.text == "stub")
        }
    }

    @Test func aStubTakesTheRouteFormatWhole() async throws {
        try await AdminHTTPTests.withServer { server in
            let route =
                #"{"method": "POST", "path": "/api/orders/:id", "match": {"json": {"kind": "book"}}, "responses": [{"json": {"order": "{{path.id}}"}, "template": true}, {"status": 409, "text": "again"}]}"#
            let r16 = try await server.admin("POST", "/__mockd/stubs", body: route)
            #expect(r16.status == 201)
            let r17 = try await server.request("POST", "/api/orders/7", body: Data(#"{"kind": "book"}"#.utf8))
            #expect(r17.text == #"{"order":"7"}"#)
            let r18 = try await server.request("POST", "/api/orders/7", body: Data(#"{"kind": "book"}"#.utf8))
            #expect(r18.status == 409)
            let r19 = try await server.request("POST", "/api/orders/7", body: Data(#"{"kind": "pen"}"#.utf8))
            #expect(r19.status != 409)
        }
    }

    @Test func aBadStubIsA400NamingEveryPlace() async throws {
        try await AdminHTTPTests.withServer { server in
            let refused = try await server.admin(
                "POST", "/__mockd/stubs", body: #"{"method": "GET", "path": "/x", "response": {"status": 99, "jsn": 1}}"#)
            #expect(refused.status == 400)
            let errors = (refused.object["errors"] as? [String]) ?? []
            #expect(errors.contains { $0.hasPrefix("stub.response.status:") }, "\(errors)")
            #expect(errors.contains { $0.contains("jsn") }, "\(errors)")
            #expect(try await server.admin("GET", "/__mockd/stubs").object["stubs"] as? [Any] != nil)
            #expect(((try await server.admin("GET", "/__mockd/stubs").object["stubs"] as? [Any]) ?? [1]).isEmpty)
        }
    }
}
