import Foundation
import Testing
import TestSupport

/// `mockd import FILE.har` as a user runs it, then `mockd check` and a real mockd on what it wrote.
@Suite(.timeLimit(.minutes(3)))
struct HARImportCLITests {
    static let run = CLITests.executable
    static let fixtures = Fixture.repositoryRoot.appendingPathComponent("Tests/Fixtures/har")

    /// One answer the HAR says a request got: what the imported mocks must give back.
    struct Expected {
        var method: String
        var target: String
        var status: Int
        var mediaType: String?
        var body: [UInt8]
    }

    /// The last answer per method and path of `host`'s entries, read with JSONSerialization (not
    /// the importer's decoder): status 0 (no answer) and HEAD are not imported.
    static func expectations(_ fixture: String, host: String = "api.example.com") throws -> [Expected] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent(fixture + ".har"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = try #require((document["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        var order: [String] = []
        var last: [String: Expected] = [:]
        for entry in entries {
            let request = try #require(entry["request"] as? [String: Any])
            let response = try #require(entry["response"] as? [String: Any])
            let method = try #require(request["method"] as? String)
            let address = try #require(request["url"] as? String)
            let url = try #require(URLComponents(string: address))
            let status = try #require(response["status"] as? Int)
            guard url.host == host, status != 0, method != "HEAD" else { continue }
            let content = response["content"] as? [String: Any] ?? [:]
            let text = content["text"] as? String ?? ""
            let decoded = content["encoding"] as? String == "base64" ? Data(base64Encoded: text) : Data(text.utf8)
            let body = Array(try #require(decoded))
            let headers = response["headers"] as? [[String: String]] ?? []
            var type = headers.first { $0["name"]?.lowercased() == "content-type" }?["value"]
            if type == nil, !body.isEmpty { type = content["mimeType"] as? String }
            let key = method + " " + url.path
            if last[key] == nil { order.append(key) }
            last[key] = Expected(
                method: method, target: url.percentEncodedPath + (url.percentEncodedQuery.map { "?" + $0 } ?? ""),
                status: status, mediaType: type.map(Self.mediaType), body: body)
        }
        return order.map { last[$0]! }
    }

    static func mediaType(_ contentType: String) -> String {
        String(contentType.split(separator: ";").first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Each exporter's HAR: imported, `check` clean, and every imported request answered with
    /// the captured status, media type and bytes by a mockd on that root.
    @Test(arguments: ["proxyman", "charles", "chrome", "safari"])
    func importedRequestsAreAnsweredAsCaptured(_ fixture: String) async throws {
        try await withTemporaryFolder { folder async throws in
            let har = Self.fixtures.appendingPathComponent(fixture + ".har").path
            let imported = try await runProcess(
                Self.run, ["import", har, "--root", "app/MockData", "--routes", "app/routes"], currentDirectory: folder.path)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.stdout.contains("entries of api.example.com"), "\(imported)")
            let check = try await runProcess(
                Self.run, ["check", "--root", "app/MockData", "--routes", "app/routes"], currentDirectory: folder.path)
            #expect(check.status == 0, "\(check)")
            #expect(check.stdout.contains("0 errors, 0 warnings"), "\(check)")
            let expected = try Self.expectations(fixture)
            #expect(!expected.isEmpty)
            try await FirstHourTests.withMockd(["--root", "app/MockData", "--routes", "app/routes", "--port", "0"], in: folder.path) {
                _, startup in
                for answer in expected {
                    let served = try await FirstHourTests.send(answer.method, port: startup.port, answer.target)
                    #expect(served.status == answer.status, "\(answer.method) \(answer.target): \(served)")
                    #expect(served.body == answer.body, "\(answer.method) \(answer.target): \(served)")
                    if let type = answer.mediaType {
                        #expect(served.header("Content-Type").map(Self.mediaType) == type, "\(answer.method) \(answer.target): \(served)")
                    }
                }
            }
        }
    }

    /// Broken entries are named on stderr with their index and URL, the rest imported, and the
    /// exit status says something was skipped; a second run keeps what the first wrote.
    @Test func brokenEntriesFailTheRunAfterImportingTheRest() async throws {
        try await withTemporaryFolder { folder async throws in
            let har = Self.fixtures.appendingPathComponent("broken.har").path
            let first = try await runProcess(
                Self.run, ["import", har, "--root", "MockData", "--routes", "routes"], currentDirectory: folder.path)
            #expect(first.status == 1, "\(first)")
            #expect(first.stderr.contains("entry 1 (https://api.example.com/api/no-response): no response"), "\(first)")
            #expect(first.stderr.contains("entry 2 (https://api.example.com/api/bad-base64)"), "\(first)")
            #expect(first.stdout.contains("2 written"), "\(first)")
            #expect(folder.read("MockData/mock_api_ok_get.json") == #"{"ok":true}"#)
            let again = try await runProcess(
                Self.run, ["import", "har", har, "--root", "MockData", "--routes", "routes"], currentDirectory: folder.path)
            #expect(again.stdout.contains("0 written, 2 already there (--force replaces them)"), "\(again)")
            let notHAR = try await runProcess(
                Self.run, ["import", folder.child("MockData/mock_api_ok_get.json"), "--root", "MockData"], currentDirectory: folder.path)
            #expect(notHAR.status != 0, "\(notHAR)")
            #expect(notHAR.stderr.contains("mockd imports HAR files"), "\(notHAR)")
            let named = try await runProcess(
                Self.run, ["import", "har", folder.child("MockData/mock_api_ok_get.json"), "--root", "MockData"],
                currentDirectory: folder.path)
            #expect(named.status == 1, "\(named)")
            #expect(named.stderr.contains("not a HAR file"), "\(named)")
        }
    }

    /// Chrome's capture of a WebSocket (Tests/Fixtures/har/chrome-websocket.har) imported, `check`
    /// clean, and held by a mockd on the result as captured: the 101's subprotocol, the server's
    /// messages in order, each no sooner than its gap after the app's message it waited for.
    @Test func importedWebSocketConversationIsHeldAsCaptured() async throws {
        try await withTemporaryFolder { folder async throws in
            let har = Self.fixtures.appendingPathComponent("chrome-websocket.har").path
            let imported = try await runProcess(
                Self.run, ["import", har, "--root", "MockData", "--routes", "routes"], currentDirectory: folder.path)
            #expect(imported.status == 0, "\(imported)")
            #expect(
                imported.stdout.contains(
                    "GET /ws/scores (WebSocket, 9 messages; the last of 2 connections) → wrote MockData/mock_ws_scores_get.ws"),
                "\(imported)")
            #expect(imported.stdout.contains("entries of live.example.com: 2 written, 0 already there"), "\(imported)")
            // Nothing is written to the routes folder: the files alone are served.
            #expect(!FileManager.default.fileExists(atPath: folder.child("routes")))
            let check = try await runProcess(Self.run, ["check", "--root", "MockData"], currentDirectory: folder.path)
            #expect(check.status == 0 && check.stdout.contains("0 errors, 0 warnings"), "\(check)")

            try await FirstHourTests.withMockd(["--root", "MockData", "--port", "0"], in: folder.path) { _, startup in
                let opened = ContinuousClock.now
                let client = try await WebSocketClient.open(
                    port: startup.port, target: "/ws/scores?token=abc", subprotocols: ["scores.v1", "scores.v0"])
                #expect(client.handshake.status == 101, "\(client.handshake)")
                #expect(client.handshake.header("Sec-WebSocket-Protocol") == "scores.v1", "\(client.handshake)")
                // Each read is timed from the app's message before it (or the open): mockd's
                // clock for a send starts no sooner than that.
                let heard = try await client.run { client -> [(frame: WebSocketFrame, since: Duration)] in
                    var heard: [(WebSocketFrame, Duration)] = []
                    var mark = opened
                    func read(_ count: Int) throws {
                        for _ in 0..<count {
                            let frame = try client.readFrame()
                            heard.append((frame, frame.at - mark))
                        }
                    }
                    try read(1)
                    mark = .now
                    try client.send(text: #"{"type":"subscribe","match":42,"client":"ios"}"#)
                    try read(2)
                    mark = .now
                    try client.send(text: "ping")
                    try read(2)
                    mark = .now
                    try client.send(binary: [4, 5, 6])
                    try read(1)
                    client.disconnect()
                    return heard
                }
                let expected: [(opcode: WebSocketOpcode, payload: [UInt8], atLeast: Duration)] = [
                    (.text, Array(#"{"type":"hello","server":"live-1"}"#.utf8), .milliseconds(50)),
                    (.text, Array(#"{"type":"score","home":1,"away":0}"#.utf8), .milliseconds(120)),
                    (.text, Array(#"{"type":"score","home":2,"away":0}"#.utf8), .milliseconds(320)),
                    (.text, Array("pong".utf8), .milliseconds(10)),
                    (.binary, [0, 1, 2, 3], .milliseconds(200)),
                    (.text, Array("full time {{home}}-{{away}}".utf8), .milliseconds(20)),
                ]
                #expect(heard.count == expected.count)
                for (got, want) in zip(heard, expected) {
                    #expect(got.frame.opcode == want.opcode.rawValue && got.frame.fin && got.frame.payload == want.payload, "\(got.frame)")
                    #expect(got.since >= want.atLeast, "\(got.frame) came \(got.since) after the message it answers")
                }
            }
        }
    }
}
