import Foundation
import MockdCore
import MockdHTTP
import Testing
import TestSupport

/// WebSocket routes end to end: a real server on its own port, and a client written from RFC 6455
/// (`WebSocketClient`), independent of the wslay framing the server uses.
@Suite("WebSocket routes over the wire")
struct WebSocketHTTPTests {
    static let chat = #"""
        {"method": "GET", "path": "/ws/chat/:room", "websocket": {
          "subprotocols": ["chat.v1"],
          "onOpen": [{"json": {"type": "welcome", "room": "{{path.room}}"}}, {"text": "ready", "afterMs": 100}],
          "onMessage": [
            {"match": {"json": {"type": "subscribe"}}, "reply": [{"json": {"type": "subscribed"}}]},
            {"match": {"regex": "^say:"}, "reply": [{"text": "{{message}}"}], "broadcast": true},
            {"match": {"text": "bye"}, "close": {"code": 1000, "reason": "bye"}}],
          "close": {"afterMessages": 50, "code": 1001, "reason": "server restarts"}
        }}
        """#
    static let echo = #"{"path": "/ws/echo", "websocket": {"onMessage": [{"reply": {"text": "{{message}}"}}]}}"#
    static let drop = #"""
        {"path": "/ws/drop", "websocket": {"onMessage": [{"reply": {"text": "ok"}}], "fault": {"kind": "drop", "afterMessages": 2}}}
        """#
    static let reset = #"""
        {"path": "/ws/reset", "websocket": {"onMessage": [{"reply": {"text": "ok"}}], "fault": {"kind": "reset", "afterMessages": 2}}}
        """#
    static let farewell = #"""
        {"path": "/ws/farewell", "websocket": {"onMessage": [{"match": {"text": "bye"}, "reply": {"text": "goodbye"}, "close": {"code": 1000, "reason": "bye"}}]}}
        """#
    static let timed = #"""
        {"path": "/ws/timed", "websocket": {"onOpen": {"text": "hi"}, "close": {"afterMs": 150, "code": 4002, "reason": "time is up"}}}
        """#
    static let early = #"""
        {"path": "/ws/early", "websocket": {"onOpen": {"text": "first"}, "onMessage": [{"reply": {"text": "{{message}}"}}]}}
        """#
    static let ending = #"""
        {"path": "/ws/ending", "websocket": {"onMessage": [{"reply": {"text": "ok"}}], "close": {"afterMessages": 2, "code": 4001, "reason": "two is enough"}}}
        """#

    /// The largest message from the app the server takes in these tests.
    static let maxMessage = 1024
    static let rfcKey = "dGhlIHNhbXBsZSBub25jZQ=="

    static func withServer<T>(_ body: (RouteServer) async throws -> T) async throws -> T {
        try await withRouteServer(
            files: ["users/mock_api_users_get.json": "[]"],
            tables: ["ws.json": routeTable(chat, echo, drop, reset, ending, farewell, timed, early)],
            configure: { $0.maxWebSocketMessageBytes = maxMessage }, body)
    }

    /// An upgraded connection to `target` on `server`.
    static func open(
        _ server: RouteServer, _ target: String, session: String? = nil, subprotocols: [String] = [], key: String? = nil
    ) async throws -> WebSocketClient {
        let client = try await WebSocketClient.open(
            port: server.port, target: target, headers: session.map { [("X-Mock-Session", $0)] } ?? [], subprotocols: subprotocols, key: key
        )
        try #require(client.handshake.status == 101, "not upgraded: \(client.handshake)")
        return client
    }

    /// A chat connection that has had its welcome and its ready.
    static func openChat(_ server: RouteServer, room: String = "lobby", session: String? = nil) async throws -> WebSocketClient {
        let client = try await open(server, "/ws/chat/\(room)", session: session, subprotocols: ["chat.v1"])
        let opening = try await client.run { [try $0.readText(), try $0.readText()] }
        #expect(opening == [#"{"type":"welcome","room":"\#(room)"}"#, "ready"])
        return client
    }

    static func jsonObject(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], "not a JSON object")
    }

    // MARK: - The conversation

    @Test func theChatConversationEndToEnd() async throws {
        try await Self.withServer { server in
            let sent = ContinuousClock.now
            let client = try await Self.open(server, "/ws/chat/lobby", subprotocols: ["chat.v2", "chat.v1"], key: Self.rfcKey)
            let head = client.handshake
            #expect(head.header("Upgrade")?.lowercased() == "websocket")
            #expect(head.header("Connection")?.lowercased().contains("upgrade") == true, "\(head)")
            #expect(head.header("Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
            #expect(head.header("Sec-WebSocket-Protocol") == "chat.v1")

            let (welcome, ready) = try await client.run { (try $0.readFrame(), try $0.readFrame()) }
            #expect(welcome.text == #"{"type":"welcome","room":"lobby"}"#)
            #expect(welcome.opcode == WebSocketOpcode.text.rawValue && welcome.fin && !welcome.masked, "\(welcome)")
            #expect(ready.text == "ready")
            // A lower bound only: ready cannot come before its 100 ms after the open.
            #expect(sent.duration(to: ready.at) >= .milliseconds(100))

            let replies = try await client.run { client in
                try client.send(text: #"{"type": "subscribe", "topic": "news"}"#)
                let subscribed = try client.readText()
                try client.send(text: "say:hi there")
                let said = try client.readText()
                try client.send(text: "nothing matches this")
                try client.send(text: "bye")
                return (subscribed, said, try client.closeHandshake())
            }
            #expect(replies.0 == #"{"type":"subscribed"}"#)
            #expect(replies.1 == "say:hi there")
            // A rule's close: no answer to the unmatched message came before it.
            #expect(replies.2.code == 1000)
            #expect(replies.2.reason == "bye")
            #expect(replies.2.end == .closed)
            try await server.test.expectStillServing()
        }
    }

    @Test func aClientsCloseIsAnsweredWithTheSameCode() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/echo")
            let (echoed, close, end) = try await client.run { client in
                try client.send(text: "one")
                let echoed = try client.readText()
                try client.sendClose(code: 1000, reason: "done")
                return (echoed, try client.readClose(), try client.readToEnd())
            }
            #expect(echoed == "one")
            #expect(close.code == 1000)
            #expect(end == .closed)
        }
    }

    /// The text of every frame up to the server's close, the close, and how the stream ended
    /// once the close was answered.
    static func textsUntilClose(_ client: WebSocketClient) throws -> (texts: [String?], code: UInt16?, reason: String, end: WebSocketEnd) {
        var texts: [String?] = []
        while true {
            let frame = try client.readFrame()
            guard frame.opcode == WebSocketOpcode.close.rawValue else {
                texts.append(frame.text)
                continue
            }
            try? client.sendClose(code: frame.closeCode)
            return (texts, frame.closeCode, frame.closeReason, try client.readToEnd())
        }
    }

    @Test func theRoutesCloseComesAfterItsCountOfMessages() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/ending")
            let (first, rest) = try await client.run { client in
                try client.send(text: "1")
                let first = try client.readText()
                try client.send(binary: [2])
                return (first, try Self.textsUntilClose(client))
            }
            #expect(first == "ok")
            #expect(rest.code == 4001)
            #expect(rest.reason == "two is enough")
            #expect(rest.end == .closed)
            // The second message's timeline is [send "ok", close]: its reply goes out first.
            #expect(rest.texts == ["ok"])
        }
    }

    @Test func aRulesRepliesGoOutBeforeItsClose() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/farewell")
            let rest = try await client.run { client in
                try client.send(text: "bye")
                return try Self.textsUntilClose(client)
            }
            #expect(rest.code == 1000)
            #expect(rest.reason == "bye")
            #expect(rest.end == .closed)
            #expect(rest.texts == ["goodbye"])
        }
    }

    @Test func aTimedCloseComesAtItsTime() async throws {
        try await Self.withServer { server in
            let sent = ContinuousClock.now
            let client = try await Self.open(server, "/ws/timed")
            let (hello, close) = try await client.run { client in
                (try client.readText(), try client.readFrame())
            }
            #expect(hello == "hi")
            #expect(close.closeCode == 4002 && close.closeReason == "time is up", "\(close)")
            // A lower bound only.
            #expect(sent.duration(to: close.at) >= .milliseconds(150))
            let end = try await client.run { client in
                try client.sendClose(code: 4002)
                return try client.readToEnd()
            }
            #expect(end == .closed)
        }
    }

    /// A frame sent with the upgrade request, before the 101 (the bytes libmicrohttpd read past
    /// the head), is the app's first message: it is answered after the open's messages.
    @Test func aFrameSentWithTheUpgradeRequestIsAnsweredAfterTheOpen() async throws {
        try await Self.withServer { server in
            let client = try await WebSocketClient.open(
                port: server.port, target: "/ws/early", pipelined: WebSocketClient.frame(.text, Array("early bird".utf8)))
            #expect(client.handshake.status == 101, "\(client.handshake)")
            let texts = try await client.run { [try $0.readText(), try $0.readText()] }
            #expect(Set(texts) == ["first", "early bird"], "the early message is read and answered")
            #expect(texts == ["first", "early bird"], "the open's messages come first")
        }
    }

    @Test func binaryMessagesAreEchoedAsBase64Text() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/echo")
            let reply = try await client.run { client in
                try client.send(binary: [0, 1, 2, 255])
                return try client.readText()
            }
            #expect(reply == "AAEC/w==")
        }
    }

    // MARK: - Refusals

    @Test func aPlainGETGets426() async throws {
        try await Self.withServer { server in
            let result = try await server.request("GET", "/ws/chat/lobby")
            #expect(result.status == 426)
            #expect(result.header("Upgrade") == "websocket")
            #expect(result.header("Sec-WebSocket-Version") == "13")
            #expect(result.header("Content-Type")?.hasPrefix("application/json") == true)
            let error = try result.jsonObject()["error"] as? String
            #expect(error?.hasPrefix("/ws/chat/lobby is a WebSocket endpoint") == true, "\(result.text)")
            try await server.test.expectStillServing()
        }
    }

    @Test func anotherVersionGets426() async throws {
        try await Self.withServer { server in
            let client = try await WebSocketClient.open(port: server.port, target: "/ws/echo", version: "8")
            #expect(client.handshake.status == 426, "\(client.handshake)")
            #expect(client.handshake.header("Sec-WebSocket-Version") == "13")
            #expect(
                try Self.jsonObject(client.handshake.body)["error"] as? String
                    == #"unsupported Sec-WebSocket-Version "8": mockd speaks version 13"#)
        }
    }

    @Test func noSubprotocolInCommonGets400() async throws {
        try await Self.withServer { server in
            let client = try await WebSocketClient.open(port: server.port, target: "/ws/chat/lobby", subprotocols: ["chat.v2"])
            #expect(client.handshake.status == 400, "\(client.handshake)")
            #expect(client.handshake.header("Sec-WebSocket-Accept") == nil)
            #expect(
                try Self.jsonObject(client.handshake.body)["error"] as? String
                    == "no subprotocol in common: the client offers chat.v2; this route speaks chat.v1")
            try await server.test.expectStillServing()
        }
    }

    @Test func aBrokenKeyGets400() async throws {
        try await Self.withServer { server in
            let client = try await WebSocketClient.open(port: server.port, target: "/ws/echo", key: "c2hvcnQ=")
            #expect(client.handshake.status == 400, "\(client.handshake)")
            #expect(
                try Self.jsonObject(client.handshake.body)["error"] as? String
                    == "a WebSocket upgrade needs Sec-WebSocket-Key: 16 random bytes in base64")
        }
    }

    // MARK: - Broadcast

    /// Every open connection of the session on the path gets a broadcast, the sender included;
    /// another session on the path, and the session on another path, do not.
    @Test func aBroadcastReachesTheSessionOnThePathOnly() async throws {
        try await Self.withServer { server in
            let first = try await Self.openChat(server, session: "s1")
            let second = try await Self.openChat(server, session: "s1")
            let otherSession = try await Self.openChat(server, session: "s2")
            let otherPath = try await Self.openChat(server, room: "kitchen", session: "s1")

            let toFirst = try await first.run { client in
                try client.send(text: "say:hello all")
                return try client.readText()
            }
            #expect(toFirst == "say:hello all")
            #expect(try await second.run { try $0.readText() } == "say:hello all")

            // Had the broadcast reached them, it would have been queued before their own message
            // was read: their first frame is their own.
            let own = try await otherSession.run { client in
                try client.send(text: "say:s2 here")
                return try client.readText()
            }
            #expect(own == "say:s2 here")
            let ownPath = try await otherPath.run { client in
                try client.send(text: "say:kitchen here")
                return try client.readText()
            }
            #expect(ownPath == "say:kitchen here")
        }
    }

    // MARK: - Control frames and fragments

    @Test func aPingIsAnsweredWithAPongOfTheSamePayload() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/echo")
            let pong = try await client.run { client in
                try client.ping(Array("are you there".utf8))
                return try client.readFrame()
            }
            #expect(pong.opcode == WebSocketOpcode.pong.rawValue, "\(pong)")
            #expect(pong.text == "are you there")
            #expect(pong.fin && !pong.masked)
        }
    }

    @Test func aFragmentedMessageWithAPingBetweenFragmentsIsReassembledAndMatched() async throws {
        try await Self.withServer { server in
            let client = try await Self.openChat(server)
            let (pong, reply) = try await client.run { client in
                try client.send(.text, Array("say:".utf8), fin: false)
                try client.ping([7])
                try client.send(.continuation, Array("frag".utf8), fin: false)
                try client.send(.continuation, Array("ments".utf8))
                return (try client.readFrame(), try client.readText())
            }
            #expect(pong.opcode == WebSocketOpcode.pong.rawValue && pong.payload == [7], "\(pong)")
            #expect(reply == "say:fragments")
        }
    }

    // MARK: - Protocol errors

    /// The server's close after it failed the connection, then how the stream ended. Not
    /// answered: the server reads nothing more after such a close (RFC 6455, 7.1.7), and a reply
    /// arriving after its socket closed would be answered with a reset.
    static func failedClose(_ client: WebSocketClient) throws -> (code: UInt16?, reason: String, end: WebSocketEnd) {
        let (code, reason) = try client.readClose()
        return (code, reason, try client.readToEnd())
    }

    @Test func invalidUTF8TextIsClosedWith1007() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/echo")
            let close = try await client.run { client in
                try client.send(.text, [0x68, 0x69, 0xC3, 0x28])
                return try Self.failedClose(client)
            }
            #expect(close.code == 1007)
            #expect(close.end == .closed)
            try await server.test.expectStillServing()
        }
    }

    /// Split inside a character: only the whole message is invalid, and the server sees that.
    @Test func invalidUTF8AcrossFragmentsIsClosedWith1007() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/echo")
            let close = try await client.run { client in
                try client.send(.text, [0x68, 0xE2, 0x82], fin: false)
                try client.send(.continuation, [0x28])
                return try Self.failedClose(client)
            }
            #expect(close.code == 1007)
            try await server.test.expectStillServing()
        }
    }

    @Test func anUnmaskedFrameIsClosedWith1002() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/echo")
            let close = try await client.run { client in
                try client.send(.text, Array("hello".utf8), masked: false)
                return try Self.failedClose(client)
            }
            #expect(close.code == 1002)
            #expect(close.end == .closed)
            try await server.test.expectStillServing()
        }
    }

    @Test func aContinuationWithoutAStartIsClosedWith1002() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/echo")
            let close = try await client.run { client in
                try client.send(.continuation, Array("orphan".utf8))
                return try Self.failedClose(client)
            }
            #expect(close.code == 1002)
            #expect(close.end == .closed)
            try await server.test.expectStillServing()
        }
    }

    @Test func aMessageOverTheLimitIsClosedWith1009() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/echo")
            let (atLimit, close) = try await client.run { client in
                try client.send(text: String(repeating: "a", count: Self.maxMessage))
                let atLimit = try client.readText()
                try client.send(text: String(repeating: "b", count: Self.maxMessage + 1))
                return (atLimit, try Self.failedClose(client))
            }
            #expect(atLimit.count == Self.maxMessage, "a message of the limit exactly is taken")
            #expect(close.code == 1009)
            // The server stops reading at the frame's length: a payload it left unread makes its
            // close a reset. Either way, the connection ends.
            #expect([.closed, .reset].contains(close.end))
            try await server.test.expectStillServing()
        }
    }

    @Test func fragmentsThatAddUpOverTheLimitAreClosedWith1009() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/echo")
            let close = try await client.run { client in
                let half = Array(repeating: UInt8(ascii: "c"), count: Self.maxMessage / 2 + 1)
                try client.send(.text, half, fin: false)
                try client.send(.continuation, half)
                return try Self.failedClose(client)
            }
            #expect(close.code == 1009)
            try await server.test.expectStillServing()
        }
    }

    // MARK: - Faults

    /// Everything the server sent until it ended the stream, and how it ended.
    static func framesToEnd(_ client: WebSocketClient) throws -> (frames: [WebSocketFrame], end: WebSocketEnd) {
        var frames: [WebSocketFrame] = []
        while true {
            switch try client.next() {
            case .frame(let frame): frames.append(frame)
            case .ended(let end): return (frames, end)
            }
        }
    }

    @Test func aDropEndsTheConnectionWithoutACloseFrame() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/drop")
            let (first, rest) = try await client.run { client in
                try client.send(text: "1")
                let first = try client.readText()
                try client.send(text: "2")
                return (first, try Self.framesToEnd(client))
            }
            #expect(first == "ok")
            #expect(!rest.frames.contains { $0.opcode == WebSocketOpcode.close.rawValue }, "\(rest.frames)")
            #expect(rest.end == .closed)
            try await server.test.expectStillServing()
        }
    }

    @Test func aResetEndsTheConnectionWithARST() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/reset")
            let (first, rest) = try await client.run { client in
                try client.send(text: "1")
                let first = try client.readText()
                try client.send(text: "2")
                return (first, try Self.framesToEnd(client))
            }
            #expect(first == "ok")
            #expect(!rest.frames.contains { $0.opcode == WebSocketOpcode.close.rawValue }, "\(rest.frames)")
            #expect(rest.end == .reset)
            try await server.test.expectStillServing()
        }
    }

    /// The timeline of the fault's message is [send "ok", fault]: the reply goes out, then the
    /// connection breaks.
    @Test func theReplyToTheFaultsMessageGoesOutBeforeTheDrop() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, "/ws/drop")
            let rest = try await client.run { client in
                try client.send(text: "1")
                _ = try client.readText()
                try client.send(text: "2")
                return try Self.framesToEnd(client)
            }
            #expect(rest.end == .closed)
            #expect(rest.frames.map(\.text) == ["ok"])
        }
    }

    // MARK: - Reload

    /// A route whose conversation says which version of the table it came from.
    static func versioned(_ version: String) -> String {
        #"{"path": "/ws/version", "websocket": {"onOpen": {"text": "\#(version)"}, "onMessage": [{"reply": {"text": "\#(version):{{message}}"}}]}}"#
    }

    /// A `.ws` file's conversation, as versioned: a send, an expect, a send.
    static func versionedFile(_ version: String) -> String {
        #"""
        {"send": {"text": "\#(version) hello"}}
        {"expect": {"text": "next"}}
        {"send": {"text": "\#(version) next"}}

        """#
    }

    /// Sends `text` and reads the next message, which must be text.
    static func exchange(_ client: WebSocketClient, _ text: String) async throws -> String {
        try await client.run { client in
            try client.send(text: text)
            return try client.readText()
        }
    }

    @Test func aReloadKeepsOpenConnectionsOnTheirOldConversation() async throws {
        let files = ["mock_ws_feed_get.ws": Self.versionedFile("v1")]
        try await withRouteServer(files: files, tables: ["ws.json": routeTable(Self.versioned("v1"))]) { server in
            let oldRoute = try await Self.open(server, "/ws/version")
            let oldFile = try await Self.open(server, "/ws/feed")
            #expect(try await oldRoute.run { try $0.readText() } == "v1")
            #expect(try await oldFile.run { try $0.readText() } == "v1 hello")

            try server.write("routes/ws.json", routeTable(Self.versioned("v2")))
            try server.write("MockData/mock_ws_feed_get.ws", Self.versionedFile("v2"))
            let reload = try await server.admin("POST", "/__mockd/reload")
            #expect(reload.status == 200)
            #expect(reload.object["status"] as? String == "ok", "\(reload.object)")

            // New connections hold the new conversations…
            let newRoute = try await Self.open(server, "/ws/version")
            let newFile = try await Self.open(server, "/ws/feed")
            #expect(try await newRoute.run { try $0.readText() } == "v2")
            #expect(try await newFile.run { try $0.readText() } == "v2 hello")
            // …and the open ones go on with the ones they started with, a route's and a file's.
            #expect(try await Self.exchange(oldRoute, "hi") == "v1:hi")
            #expect(try await Self.exchange(oldFile, "next") == "v1 next")
            #expect(try await Self.exchange(newRoute, "hi") == "v2:hi")
            #expect(try await Self.exchange(newFile, "next") == "v2 next")
        }
    }

    // MARK: - The dashboard's feed

    static func connections(_ answer: [String: Any]) -> [[String: Any]] { (answer["webSockets"] as? [[String: Any]]) ?? [] }

    /// Polls `GET /__mockd/events` as the dashboard does, from the answer `start`, until `done`
    /// holds for the answers so far; `meanwhile` runs once the first poll is parked, so what it
    /// does is news for a waiting poll. News must wake each poll: one answered only at its wait
    /// (50 s) fails, and so does the whole taking longer than `eventDeadline`.
    static func feed(
        _ server: RouteServer, from start: [String: Any], meanwhile: () async throws -> Void = {},
        until done: ([[String: Any]]) -> Bool
    ) async throws -> [[String: Any]] {
        var answers: [[String: Any]] = []
        var last = start
        var acted = false
        let clock = ContinuousClock()
        let deadline = clock.now + eventDeadline
        while clock.now < deadline {
            let next = try #require(last["next"] as? Int)
            let state = try #require(last["state"] as? Int)
            let asked = clock.now
            async let polled = server.admin("GET", "/__mockd/events?after=\(next)&state=\(state)&wait=50")
            if !acted {
                acted = true
                // A poll is always parked, news or not, until the feed's next delivery (250 ms).
                let parked = try await blocking {
                    let deadline = Deadline(eventDeadline)
                    while server.server.parkedCount == 0 && !deadline.hasPassed { usleep(1_000) }
                    return server.server.parkedCount > 0
                }
                try #require(parked, "the poll was never parked")
                try await meanwhile()
            }
            let answer = try await polled
            #expect(answer.status == 200)
            // Not answered at its wait (50 s): news woke it. A busy machine's waking can take many
            // seconds (18 s seen in CI beside 890 other tests), so the margin is the wait's.
            try #require(clock.now - asked < .seconds(40), "the poll was answered at its wait: nothing woke it")
            answers.append(answer.object)
            last = answer.object
            if done(answers) { return answers }
        }
        Issue.record("the feed did not show it within \(eventDeadline): \(answers)")
        return answers
    }

    static func messages(_ answers: [[String: Any]]) -> [[String: Any]] {
        answers.flatMap { ($0["messages"] as? [[String: Any]]) ?? [] }
    }

    @Test func theDashboardsFeedListsConnectionsAndTheirMessagesLive() async throws {
        try await Self.withServer { server in
            let start = try await server.admin("GET", "/__mockd/events")
            #expect(start.status == 200)
            #expect(start.object["webSockets"] as? [Any] != nil && Self.connections(start.object).isEmpty)

            // A connection opening is listed.
            var opening: WebSocketClient?
            let opened = try await Self.feed(server, from: start.object) {
                opening = try await Self.open(server, "/ws/echo", session: "sim-3")
            } until: {
                !Self.connections($0.last!).isEmpty
            }
            let client = try #require(opening)
            let listed = try #require(Self.connections(opened.last!).first)
            #expect(listed["path"] as? String == "/ws/echo")
            #expect(listed["session"] as? String == "sim-3")
            let id = try #require(listed["id"] as? Int)

            // Its messages both ways wake the poll, as messages, not requests.
            let talked = try await Self.feed(server, from: opened.last!) {
                let echoed = try await Self.exchange(client, "hello")
                #expect(echoed == "hello")
            } until: {
                Self.messages($0).count >= 2
            }
            let messages = Self.messages(talked)
            #expect(messages.map { $0["direction"] as? String } == ["in", "out"])
            #expect(messages.map { $0["text"] as? String } == ["hello", "hello"])
            #expect(messages.allSatisfy { $0["connection"] as? Int == id && $0["id"] is Int })
            #expect(talked.allSatisfy { (($0["requests"] as? [Any]) ?? []).isEmpty }, "messages are not requests")

            // The dashboard's close button: the ending wakes the poll, and the list is empty.
            let ended = try await Self.feed(server, from: talked.last!) {
                let closing = try await server.admin("DELETE", "/__mockd/ws/connections/\(id)")
                #expect(closing.status == 200)
                let close = try await client.run { try $0.closeHandshake() }
                #expect(close.code == 1000)
            } until: {
                Self.connections($0.last!).isEmpty
            }
            #expect(Self.connections(ended.last!).isEmpty)
        }
    }

    // MARK: - Shutdown

    @Test func shutdownClosesAnOpenConnectionWith1001() async throws {
        try await Self.withServer { server in
            let client = try await Self.openChat(server)
            async let stopped: Void = stopOffThePool(server.server)
            let close = try await client.run { try $0.closeHandshake() }
            await stopped
            #expect(close.code == 1001)
            #expect(close.reason == "mockd is stopping")
            #expect(close.end == .closed)
        }
    }
}
