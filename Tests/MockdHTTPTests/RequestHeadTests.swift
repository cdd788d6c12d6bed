import Foundation
import MockdCore
import MockdHTTP
import Testing

/// What is decided once, when a request's head is in, holds for the whole request: the path in
/// origin form (so an absolute-form request is what its path says), and the configuration it is
/// served with (so a reload during its upload cannot change how much of its body is kept).
@Suite("One request head")
struct RequestHeadTests {
    /// With the journal off nothing keeps ordinary bodies; an admin call still needs its whole
    /// body, also when it is sent in absolute form, as proxies send requests.
    @Test func anAbsoluteFormAdminCallKeepsItsBody() async throws {
        try await withRouteServer(journal: RequestJournal(capacity: 0)) { server in
            let body = Array(#"{"method": "GET", "path": "/api/feed", "body": "{}"}"#.utf8)
            let port = server.port
            let created = try await server.test.raw("POST", "http://127.0.0.1:\(port)/__mockd/mocks", body: body)
            #expect(created.status == 201, "\(created)")
            #expect(FileManager.default.fileExists(atPath: server.root + "/mock_api_feed_get.json"))
        }
    }

    /// A stub that reads bodies gets them whole, also with the journal off and no route reading
    /// bodies: stubs are added at run time, after the snapshot decided nothing reads bodies.
    @Test func aStubThatReadsBodiesGetsThemWhole() async throws {
        try await withRouteServer(journal: RequestJournal(capacity: 0)) { server in
            let stub = Array(
                #"{"method": "POST", "path": "/api/notes", "match": {"json": {"kind": "memo"}}, "response": {"status": 201, "json": {"ok": true}}}"#
                    .utf8)
            let added = try await server.test.raw("POST", "/__mockd/stubs", body: stub)
            #expect(added.status == 201, "\(added)")
            let answer = try await server.test.raw("POST", "/api/notes", body: Array(#"{"kind": "memo", "text": "hello"}"#.utf8))
            #expect(answer.status == 201, "\(answer)")
        }
    }

    /// A request whose head arrived before a reload is answered by the configuration it started
    /// with, whole body included: the new one (a route that reads bodies) is not handed the body
    /// that the old one (nothing reads bodies) did not keep.
    @Test func aReloadDuringAnUploadLeavesTheRequestOnItsConfiguration() async throws {
        try await withRouteServer(files: ["mock_api_echo_post.json": #"{"from": "file"}"#], journal: RequestJournal(capacity: 0)) {
            server in
            let body = Array(#"{"padding": "xxxxxxxx", "word": "TAIL"}"#.utf8)
            let (interim, answer) = try await server.test.withRawConnection { connection -> (RawResponse, RawResponse) in
                // Expect: 100-continue: the server says when it has the head, so the reload is known to come after it.
                try connection.send(
                    "POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n")
                let interim = try connection.readResponse()
                try FileManager.default.removeItem(atPath: server.root + "/mock_api_echo_post.json")
                try server.write(
                    "routes/b.json",
                    routeTable(
                        #"{"method": "POST", "path": "/api/echo", "match": {"text": "TAIL"}, "response": {"json": {"from": "route"}}}"#))
                let report = server.reload(trigger: "test")
                guard report.ok else { throw RawHTTPError(description: "reload failed: \(report.errors)") }
                try connection.send(body)
                return (interim, try connection.readResponse())
            }
            #expect(interim.status == 100)
            #expect(answer.status == 200, "\(answer)")
            #expect(String(decoding: answer.body, as: UTF8.self) == #"{"from": "file"}"#)
            // The next request is the new configuration's.
            let next = try await server.test.raw("POST", "/api/echo", body: body)
            #expect(String(decoding: next.body, as: UTF8.self).contains("route"), "\(next)")
        }
    }
}
