import Foundation
import Testing
import TestSupport

/// `--proxy` relays a WebSocket upgrade nothing here answers: two real mockd processes, the
/// upstream holding a scripted conversation and the local one relaying it, and a client written
/// from RFC 6455 (`WebSocketClient`) on the local one.
@Suite("WebSocket upgrades relayed with --proxy")
struct WebSocketRelayTests {
    static let upstreamRoutes = #"""
        {"routes": [{"method": "GET", "path": "/ws/chat/:room", "websocket": {
          "subprotocols": ["chat.v1"],
          "onOpen": [{"json": {"type": "welcome", "room": "{{path.room}}", "token": "{{headers.authorization}}", "session": "{{headers.x-mock-session}}"}}],
          "onMessage": [
            {"match": {"json": {"type": "subscribe"}}, "reply": [{"json": {"type": "subscribed"}}, {"base64": "AAEC"}]},
            {"match": {"text": "bye"}, "close": {"code": 4000, "reason": "see you"}}]
        }}]}
        """#

    /// An upstream mockd serving `upstreamRoutes`, and a local one relaying to it.
    static func withRelay(
        _ extra: [String] = [], _ body: (_ local: ChildProcess, _ localPort: Int, _ upstream: ChildProcess) async throws -> Void
    ) async throws {
        try await withRelay(extra) { local, port, upstream, _ in try await body(local, port, upstream) }
    }

    static func withRelay(
        _ extra: [String] = [],
        _ body: (_ local: ChildProcess, _ localPort: Int, _ upstream: ChildProcess, _ localFolder: String) async throws -> Void
    ) async throws {
        try await withTemporaryFolder([
            "upstream/MockData/mock_api_a_get.json": "{}", "upstream/routes/ws.json": upstreamRoutes,
            "local/MockData/mock_api_b_get.json": "{}", "local/routes/README.txt": "recorded routes go here",
        ]) { folder async throws in
            try await FirstHourTests.withMockd(
                ["--root", "MockData", "--routes", "routes", "--port", "0"], in: folder.child("upstream")
            ) { upstream, upstreamStartup async throws in
                try await FirstHourTests.withMockd(
                    ["--root", "MockData", "--routes", "routes", "--port", "0", "--proxy", "http://127.0.0.1:\(upstreamStartup.port)"]
                        + extra,
                    in: folder.child("local")
                ) { local, startup async throws in
                    try await body(local, startup.port, upstream, folder.child("local"))
                }
            }
        }
    }

    @Test func theUpstreamsConversationGoesBothWaysAndIsJournaled() async throws {
        try await Self.withRelay { local, port, upstream in
            let client = try await WebSocketClient.open(
                port: port, target: "/ws/chat/lobby?x=1",
                headers: [("X-Mock-Session", "relay-1"), ("Authorization", "Bearer t0k")], subprotocols: ["other", "chat.v1"])
            #expect(client.handshake.status == 101, "\(client.handshake)")
            #expect(client.handshake.header("Sec-WebSocket-Protocol") == "chat.v1")
            #expect(client.handshake.header("Sec-WebSocket-Accept") != nil)
            // mockd's own source, not the upstream's as well.
            let sources = client.handshake.headers.filter { $0.name.lowercased() == "x-mockd-source" }.map(\.value)
            #expect(sources.count == 1 && sources[0].hasPrefix("proxy "), "\(sources)")
            let welcome = try await client.run { try $0.readText() }
            // The app's headers reached the upstream, which saw the path as sent; mockd's session header stayed here.
            #expect(welcome == #"{"type":"welcome","room":"lobby","token":"Bearer t0k","session":""}"#)
            let replies = try await client.run { client -> [WebSocketFrame] in
                try client.send(text: #"{"type":"subscribe"}"#)
                return [try client.readFrame(), try client.readFrame()]
            }
            #expect(String(decoding: replies[0].payload, as: UTF8.self) == #"{"type":"subscribed"}"#)
            #expect(replies[1].opcode == WebSocketOpcode.binary.rawValue && replies[1].payload == [0, 1, 2])
            // The upstream's close reaches the app with its code and reason.
            let close = try await client.run { client -> (code: UInt16?, reason: String) in
                try client.send(text: "bye")
                return try client.readClose()
            }
            #expect(close.code == 4000 && close.reason == "see you")
            try await client.run { try $0.sendClose(code: 4000) }

            // Both directions are in the local journal, under the app's session.
            let messages = try await FirstHourTests.send(port: port, "/__mockd/ws/messages?session=relay-1&count=5&wait=10")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(messages.body)) as? [String: Any], "\(messages)")
            let list = try #require(object["messages"] as? [[String: Any]], "\(messages)")
            let seen = list.map { "\($0["direction"] ?? "") \($0["text"] ?? $0["base64"] ?? "")" }
            #expect(
                seen == [
                    #"out {"type":"welcome","room":"lobby","token":"Bearer t0k","session":""}"#, #"in {"type":"subscribe"}"#,
                    #"out {"type":"subscribed"}"#, "out AAEC", "in bye",
                ], "\(seen)")
            #expect(try await local.stderrEventually(contains: "GET /ws/chat/lobby?x=1 101 proxy"), "\(local.stderrText())")
            #expect(try await local.stderrEventually(contains: "websocket ended"), "\(local.stderrText())")
            #expect(try await upstream.stderrEventually(contains: "websocket ended"), "\(upstream.stderrText())")
        }
    }

    /// `--record` writes the conversation down as a `.ws` file, and a mockd without an upstream
    /// plays it back: the upstream's messages in order, each after the app's message it answered.
    @Test func recordWritesAConversationFileThatPlaysItBack() async throws {
        try await Self.withRelay(["--record"]) { local, port, _, folder in
            let client = try await WebSocketClient.open(port: port, target: "/ws/chat/lobby", subprotocols: ["chat.v1"])
            #expect(client.handshake.status == 101, "\(client.handshake)")
            try await client.run { client in
                _ = try client.readText()
                try client.send(text: #"{"type":"subscribe"}"#)
                _ = try client.readFrame()
                _ = try client.readFrame()
                try client.send(text: "bye")
                _ = try client.closeHandshake()
            }
            #expect(try await local.stderrEventually(contains: "recorded mockd.file="), "\(local.stderrText())")
            let file = folder + "/MockData/mock_ws_chat_lobby_get.ws"
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(lines.count == 6, "\(lines)")
            #expect(
                lines.map { $0.replacing(#/,"afterMs":\d+/#, with: "") } == [
                    #"{"subprotocols":["chat.v1"]}"#,
                    #"{"send":{"json":{"type":"welcome","room":"lobby","token":"","session":""}}}"#,
                    #"{"expect":{"json":{"type":"subscribe"}}}"#,
                    #"{"send":{"json":{"type":"subscribed"}}}"#,
                    #"{"send":{"base64":"AAEC"}}"#,
                    #"{"expect":{"text":"bye"}}"#,
                ], "\(lines)")

            // Played back by a mockd with no upstream.
            try await FirstHourTests.withMockd(["--root", "MockData", "--no-routes", "--port", "0"], in: folder) { _, replay async throws in
                let again = try await WebSocketClient.open(port: replay.port, target: "/ws/chat/lobby", subprotocols: ["chat.v1"])
                #expect(again.handshake.status == 101, "\(again.handshake)")
                #expect(again.handshake.header("Sec-WebSocket-Protocol") == "chat.v1")
                let played = try await again.run { client -> [String] in
                    let welcome = try client.readText()
                    try client.send(text: #"{"type":"subscribe","extra":1}"#)
                    let subscribed = try client.readText()
                    let binary = try client.readFrame()
                    return [welcome, subscribed, binary.payload.map(String.init).joined(separator: ",")]
                }
                #expect(
                    played == [#"{"type":"welcome","room":"lobby","token":"","session":""}"#, #"{"type":"subscribed"}"#, "0,1,2"],
                    "\(played)")
            }
        }
    }

    @Test func theAppsCloseReachesTheUpstream() async throws {
        try await Self.withRelay { _, port, upstream in
            let client = try await WebSocketClient.open(port: port, target: "/ws/chat/hall", subprotocols: ["chat.v1"])
            #expect(client.handshake.status == 101, "\(client.handshake)")
            let answer = try await client.run { client -> (code: UInt16?, end: WebSocketEnd) in
                _ = try client.readText()
                try client.sendClose(code: 1000, reason: "done")
                return (try client.readClose().code, try client.readToEnd())
            }
            #expect(answer.code == 1000, "\(answer)")
            #expect(
                try await upstream.stderrEventually(contains: "mockd.how=closed by the client 1000"), "\(upstream.stderrText())")
        }
    }

    @Test func theUpstreamsRefusalIsRelayedAsItCame() async throws {
        try await Self.withRelay { _, port, _ in
            // The upstream has no WebSocket route here: its 404 JSON is what the app gets.
            let client = try await WebSocketClient.open(port: port, target: "/ws/nowhere")
            #expect(client.handshake.status == 404, "\(client.handshake)")
            #expect(String(decoding: client.handshake.body, as: UTF8.self).contains("/ws/nowhere"), "\(client.handshake)")
            // A plain request is proxied as before.
            #expect(try await FirstHourTests.send(port: port, "/api/a").status == 200)
        }
    }

    @Test func anUnreachableUpstreamIs502() async throws {
        try await withTemporaryFolder(["MockData/mock_api_b_get.json": "{}"]) { folder async throws in
            // Port 1 on 127.0.0.1: nothing listens there.
            try await FirstHourTests.withMockd(
                ["--root", "MockData", "--no-routes", "--port", "0", "--proxy", "http://127.0.0.1:1"], in: folder.path
            ) { _, startup async throws in
                let client = try await WebSocketClient.open(port: startup.port, target: "/ws/chat/lobby")
                #expect(client.handshake.status == 502, "\(client.handshake)")
                #expect(String(decoding: client.handshake.body, as: UTF8.self).contains("upstream unreachable"), "\(client.handshake)")
                // A broken handshake is mockd's to refuse, before any upstream is asked.
                let old = try await WebSocketClient.open(port: startup.port, target: "/ws/chat/lobby", version: "8")
                #expect(old.handshake.status == 426, "\(old.handshake)")
            }
        }
    }
}
