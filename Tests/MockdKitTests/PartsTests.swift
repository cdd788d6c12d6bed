import Foundation
@testable import MockdKit
import Testing

/// The pieces that need no server: what MockdKit sends and how it reads mockd's output.
@Suite("MockdKit's parts")
struct PartsTests {
    @Test("the listening line gives the URL, in text and in JSON log format")
    func listeningLine() {
        #expect(
            MockdProcess.listeningURL(in: "mockd listening on http://127.0.0.1:53121 (7 files, 17 routes, scenario default)")
                == URL(string: "http://127.0.0.1:53121"))
        #expect(
            MockdProcess.listeningURL(
                in: #"{"message":"listening","urls":["http://127.0.0.1:4000"],"files":1,"routes":0,"scenario":"default"}"#)
                == URL(string: "http://127.0.0.1:4000"))
        #expect(MockdProcess.listeningURL(in: "mockd proxies what nothing matches to http://x") == nil)
        #expect(MockdProcess.listeningURL(in: #"{"message":"proxying","upstream":"http://x"}"#) == nil)
    }

    @Test("a session is spliced into a raw route as text, the rest untouched")
    func sessionSplice() throws {
        let route = Data(#"  {"path": "/a", "response": {"json": {"b": 1, "a": 2}}}"#.utf8)
        let spliced = String(decoding: try MockdClient.inserting(session: "sim-3", into: route), as: UTF8.self)
        #expect(spliced == #"  {"session":"sim-3","path": "/a", "response": {"json": {"b": 1, "a": 2}}}"#)
        let empty = String(decoding: try MockdClient.inserting(session: "s", into: Data("{ }".utf8)), as: UTF8.self)
        #expect(empty == #"{"session":"s" }"#)
        #expect(throws: MockdError.self) { try MockdClient.inserting(session: "s", into: Data("[1]".utf8)) }
    }

    @Test("the typed stub is one route object with a json body")
    func typedRoute() throws {
        let body = try JSONEncoder().encode(["users": [String]()])
        let route = try MockdClient.route(method: "GET", path: "/api/v1/users", status: 201, headers: ["X-A": "b"], body: body)
        let object = try #require(try JSONSerialization.jsonObject(with: route) as? [String: Any])
        #expect(object["method"] as? String == "GET")
        #expect(object["path"] as? String == "/api/v1/users")
        let response = try #require(object["response"] as? [String: Any])
        #expect(response["status"] as? Int == 201)
        #expect(response["headers"] as? [String: String] == ["X-A": "b"])
        #expect((response["json"] as? [String: Any])?["users"] is [Any])
        let bare = try MockdClient.route(method: "POST", path: "/x", status: 500, headers: [:], body: nil)
        #expect(String(decoding: bare, as: UTF8.self) == #"{"method":"POST","path":"/x","response":{"status":500}}"#)
    }

    @Test("wait seconds are whole, rounded up (mockd refuses 0.5)")
    func seconds() {
        #expect(MockdClient.seconds(5) == "5")
        #expect(MockdClient.seconds(0.25) == "1")
        #expect(MockdClient.seconds(2.5) == "3")
        #expect(MockdClient.seconds(-1) == "0")
    }

    @Test("a journal entry decodes with fields missing and fields added")
    func journalEntry() throws {
        let text = #"""
            {"id":2,"time":"2026-11-25T01:06:10.373Z","method":"POST","path":"/api/v1/login","query":"",
             "headers":{"Host":"127.0.0.1","Content-Type":"application/json"},"body":"{}","scenario":"default",
             "session":null,"source":"route routes/auth.json#2","kind":"route","status":401,"durationMs":0.171,
             "response":{"contentType":"application/json","body":"{\"error\":\"x\"}"},"somethingNew":[1,2]}
            """#
        let entry = try JSONDecoder().decode(MockdRequest.self, from: Data(text.utf8))
        #expect(entry.id == 2)
        #expect(entry.session == nil)
        #expect(entry.status == 401)
        #expect(entry.header("content-type") == "application/json")
        #expect(entry.response?.contentType == "application/json")
        #expect(entry.bodyTruncated == false)
        #expect(entry.kind == .route)
        #expect(
            try JSONDecoder().decode(
                MockdRequest.self, from: Data(#"{"id":1,"method":"GET","path":"/","status":200,"kind":"newKind"}"#.utf8)
            ).kind?.rawValue == "newKind", "a kind a newer mockd adds")
        let minimal = try JSONDecoder().decode(MockdRequest.self, from: Data(#"{"id":1,"method":"GET","path":"/","status":200}"#.utf8))
        #expect(minimal.body.isEmpty && minimal.headers.isEmpty && minimal.query.isEmpty && minimal.kind == nil)
    }

    @Test("a filter sends only what it sets")
    func filterQuery() {
        #expect(MockdRequestFilter().queryItems.isEmpty)
        let items = MockdRequestFilter(session: "s", method: "POST", path: "/api/*", status: 201, limit: 3).queryItems
        #expect(items.map(\.name) == ["session", "method", "path", "status", "limit"])
    }

    @Test("health decodes without root and routesFolder (older servers)")
    func healthOlder() throws {
        let health = try JSONDecoder().decode(
            MockdHealth.self,
            from: Data(
                #"{"status":"ok","files":7,"routes":17,"scenario":"default","uptime":0.98,"lastReload":null}"#.utf8))
        #expect(health.root == nil && health.routesFolder == nil)
        #expect(health.files == 7)
    }

    @Test("a missing executable and a bad root are MockdError.processFailed, with what mockd printed")
    func processFailures() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("MockdKitTests-none-\(UUID().uuidString)")
        let missing = MockdProcess(executable: URL(fileURLWithPath: "/nonexistent/mockd"), root: root)
        await #expect(throws: MockdError.self) { _ = try await missing.start() }

        try #require(FileManager.default.isExecutableFile(atPath: mockdBinary.path), "no mockd at \(mockdBinary.path)")
        let badRoot = MockdProcess(executable: mockdBinary, root: root)
        do {
            _ = try await badRoot.start()
            Issue.record("expected mockd to refuse a root that does not exist")
        } catch let MockdError.processFailed(text) {
            #expect(text.contains("does not exist"))
        }
        #expect(badRoot.url == nil)
    }
}
