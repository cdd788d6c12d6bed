import Foundation
import MockdKit
import TestSupport
import Testing

/// The WebSocket calls a UI test makes, against the bundled chat route (`routes/live.json`):
/// the app's side is a WebSocket client written from RFC 6455, the test's side is MockdKit.
@Suite("WebSocket calls")
struct WebSocketCallTests {
    @Test("a test lists its session's connection, pushes to it, waits for what the app sent, and closes it")
    func pushWaitAndClose() async throws {
        try await withMockd { client, _ in
            let port = try #require(client.url.port)
            let app = try await WebSocketClient.open(
                port: port, target: "/ws/chat/lobby", headers: [("X-Mock-Session", "kit-1")], subprotocols: ["chat.v1"])
            #expect(app.handshake.status == 101)
            #expect(try await app.run { try $0.readText() } == #"{"type":"welcome","room":"lobby"}"#)
            #expect(try await app.run { try $0.readText() } == "ready")

            let connections = try await client.webSocketConnections(session: "kit-1")
            let connection = try #require(connections.first)
            #expect(connections.count == 1)
            #expect(connection.path == "/ws/chat/lobby")
            #expect(connection.session == "kit-1")
            #expect(try await client.webSocketConnections(session: "someone-else").isEmpty)

            // A push reaches this session's connection only.
            #expect(try await client.sendWebSocket(.text("goal"), session: "kit-1", path: "/ws/chat/lobby") == 1)
            #expect(try await app.run { try $0.readText() } == "goal")
            let nobody = await httpError { try await client.sendWebSocket(.text("x"), session: "other", path: "/ws/chat/lobby") }
            #expect(nobody?.status == 404)

            // What the app sends is journaled for the test to wait on.
            try await app.run { try $0.send(text: #"{"type":"subscribe","topic":"scores"}"#) }
            let sent = try await client.waitForMessages(MockdMessageFilter(session: "kit-1", direction: .fromApp))
            #expect(sent.first?.text == #"{"type":"subscribe","topic":"scores"}"#)
            #expect(try await app.run { try $0.readText() } == #"{"type":"subscribed"}"#)
            let pushed = try await client.webSocketMessages(MockdMessageFilter(session: "kit-1", direction: .fromMockd))
            #expect(pushed.map(\.text) == [#"{"type":"welcome","room":"lobby"}"#, "ready", "goal", #"{"type":"subscribed"}"#])

            try await client.closeWebSocket(connection.id, code: 4000, reason: "test over")
            let close = try await app.run { try $0.readClose() }
            #expect(close.code == 4000)
            #expect(close.reason == "test over")
        }
    }

    @Test("waitForMessages throws messagesTimedOut with what matched when too few came")
    func waitTimesOut() async throws {
        try await withMockd { client, _ in
            do {
                _ = try await client.waitForMessages(MockdMessageFilter(session: "nobody"), count: 1, timeout: 1)
                Issue.record("expected messagesTimedOut")
            } catch MockdError.messagesTimedOut(let found) {
                #expect(found.isEmpty)
            }
        }
    }
}
