import MockdCore
import Testing

/// The core's side of a relayed upgrade (`--proxy`): what goes upstream, and what the app gets
/// for each answer the upstream can give.
@Suite("WebSocket: relaying an upgrade upstream")
struct WebSocketRelayCoreTests {
    static let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="  // RFC 6455's example key's accept value

    /// The relay the resolver decides for a well-formed upgrade nothing here answers.
    static func relay(_ extra: [HTTPHeader] = []) throws -> WebSocketRelay {
        var relay: WebSocketRelay?
        try withSnapshot(["users/mock_api_users_get.json": "[]"]) { snapshot, _ in
            let resolver = Resolver(snapshot: snapshot, state: RuntimeState(), policy: ResolutionPolicy(forwardsMisses: true))
            let request = WebSocketHandshakeTests.request(extra: extra + [HTTPHeader("X-Mock-Session", "s-1")])
            guard case .relay(let decided) = resolver.resolve(request) else {
                Issue.record("not relayed: \(resolver.resolve(request))")
                return
            }
            relay = decided
        }
        return try #require(relay)
    }

    @Test func anUpgradeNothingAnswersIsRelayedWithTheAppsHeadersButCompression() throws {
        let relay = try Self.relay([
            HTTPHeader("Sec-WebSocket-Protocol", "chat.v1, chat.v2"), HTTPHeader("Sec-WebSocket-Extensions", "permessage-deflate"),
            HTTPHeader("Authorization", "Bearer t"),
        ])
        #expect(relay.session == "s-1" && relay.path == "/ws/chat/lobby")
        let names = relay.headers.map { $0.name.lowercased() }
        #expect(names.contains("authorization") && names.contains("sec-websocket-key") && names.contains("upgrade"))
        #expect(!names.contains("sec-websocket-extensions"), "\(names)")
    }

    @Test func aBrokenUpgradeIsRefusedWithoutAskingTheUpstream() throws {
        try withSnapshot(["users/mock_api_users_get.json": "[]"]) { snapshot, _ in
            let resolver = Resolver(snapshot: snapshot, state: RuntimeState(), policy: ResolutionPolicy(forwardsMisses: true))
            #expect(resolver.resolve(WebSocketHandshakeTests.request(["Sec-WebSocket-Version": "8"])).status == 426)
            #expect(resolver.resolve(WebSocketHandshakeTests.request(["Sec-WebSocket-Key": "short"])).status == 400)
            // A plain GET is forwarded as before.
            guard case .forward = resolver.resolve(.make(path: "/api/none")) else {
                Issue.record("a plain miss was not forwarded")
                return
            }
        }
    }

    @Test func theUpstreams101OpensTheRelayWithItsSubprotocol() throws {
        let relay = try Self.relay([HTTPHeader("Sec-WebSocket-Protocol", "chat.v1, chat.v2")])
        let resolution = relay.answer(
            status: 101, headers: [HTTPHeader("Sec-WebSocket-Accept", Self.accept), HTTPHeader("Sec-WebSocket-Protocol", "chat.v2")],
            body: [], note: "3ms")
        guard case .upgrade(let upgrade) = resolution, case .upstream = upgrade.peer else {
            Issue.record("not upgraded: \(resolution)")
            return
        }
        #expect(upgrade.head.status == 101 && upgrade.session == "s-1")
        #expect(upgrade.head.headers.first(named: "Sec-WebSocket-Protocol") == "chat.v2")
        #expect(upgrade.head.headers.first(named: "Upgrade") == "websocket")
        #expect(upgrade.head.source == "proxy 3ms")
    }

    @Test(arguments: [
        ([HTTPHeader("Sec-WebSocket-Accept", "d3Jvbmc=")], "has Sec-WebSocket-Accept \\\"d3Jvbmc=\\\" where"),
        ([], "has Sec-WebSocket-Accept missing"),
        ([HTTPHeader("Sec-WebSocket-Accept", accept), HTTPHeader("Sec-WebSocket-Protocol", "mqtt")], "chose the subprotocol \\\"mqtt\\\""),
        ([HTTPHeader("Sec-WebSocket-Accept", accept), HTTPHeader("Sec-WebSocket-Extensions", "permessage-deflate")], "extensions"),
    ])
    func aBroken101Is502(headers: [HTTPHeader], saying: String) throws {
        let relay = try Self.relay([HTTPHeader("Sec-WebSocket-Protocol", "chat.v1")])
        let resolution = relay.answer(status: 101, headers: headers, body: [], note: "")
        #expect(resolution.status == 502)
        let body = String(decoding: resolution.reply.map { $0.builtResponse?.body ?? [] } ?? [], as: UTF8.self)
        #expect(body.contains(saying), "\(body)")
    }

    @Test func anotherAnswerIsRelayedAsItCame() throws {
        let resolution = try Self.relay().answer(
            status: 401, headers: [HTTPHeader("WWW-Authenticate", "Bearer")], body: Array("no".utf8), note: "")
        #expect(resolution.status == 401)
        #expect(resolution.reply?.builtResponse?.headers.first(named: "WWW-Authenticate") == "Bearer")
        #expect(resolution.reply?.builtResponse?.body == Array("no".utf8))
    }
}

/// A relayed conversation written down as a `.ws` file (`--record`).
@Suite("WebSocket: transcripts")
struct WebSocketTranscriptTests {
    @Test func sendsAreSpacedAsTheyWentAndTheAppsMessagesAreExpected() throws {
        let ms: UInt64 = 1_000_000
        var transcript = WebSocketTranscript(subprotocol: "scores.v1", openedNanoseconds: 1_000 * ms)
        transcript.append(.init(fromApp: false, message: .text(#"{"type":"hello"}"#), nanoseconds: 1_000 * ms))
        transcript.append(.init(fromApp: true, message: .text(#"{"type":"subscribe"}"#), nanoseconds: 1_150 * ms))
        transcript.append(.init(fromApp: false, message: .text("goal"), nanoseconds: 1_350 * ms))
        transcript.append(.init(fromApp: false, message: .binary([0, 1, 2]), nanoseconds: 1_550 * ms))
        transcript.append(.init(fromApp: true, message: .binary([9]), nanoseconds: 1_600 * ms))
        transcript.append(.init(fromApp: true, message: .text("42"), nanoseconds: 1_700 * ms))
        #expect(
            transcript.fileText == """
                {"subprotocols":["scores.v1"]}
                {"send":{"json":{"type":"hello"}}}
                {"expect":{"json":{"type":"subscribe"}}}
                {"send":{"text":"goal"},"afterMs":200}
                {"send":{"base64":"AAEC"},"afterMs":200}
                {"expect":{"base64":"CQ=="}}
                {"expect":{"text":"42"}}

                """)
    }

    /// The file a transcript writes is one the loader takes, and it plays the same conversation.
    @Test func theFileLoadsAndPlaysBack() throws {
        var transcript = WebSocketTranscript(subprotocol: nil, openedNanoseconds: 0)
        transcript.append(.init(fromApp: false, message: .text("hi"), nanoseconds: 0))
        transcript.append(.init(fromApp: true, message: .binary([7]), nanoseconds: 1))
        transcript.append(.init(fromApp: false, message: .text("got it"), nanoseconds: 2))
        try withSnapshot(["mock_ws_get.ws": transcript.fileText]) { snapshot, _ in
            let resolver = Resolver(snapshot: snapshot, state: RuntimeState())
            let request = MockRequest(method: "GET", path: "/ws", headers: WebSocketHandshakeTests.request().headers)
            guard case .upgrade(let upgrade) = resolver.resolve(request), case .conversation(var conversation) = upgrade.peer else {
                Issue.record("not upgraded: \(resolver.resolve(request))")
                return
            }
            #expect(conversation.opened().flatMap { $0 } == [.send(.text("hi"))])
            #expect(conversation.received(.binary([1, 2])) == [])
            #expect(conversation.received(.binary([7])) == [.send(.text("got it"))])
        }
    }
}
