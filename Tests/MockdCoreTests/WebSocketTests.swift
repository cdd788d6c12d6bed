import Foundation
import MockdCore
import Testing

// MARK: - SHA-1 and the accept key

@Suite("WebSocket: SHA-1 and Sec-WebSocket-Accept")
struct WebSocketSHA1Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// FIPS 180 (and its examples), plus lengths on each side of the padding's block boundary
    /// (55 bytes fit one block with the length, 56 do not; 64 is a block exactly), checked with sha1sum.
    @Test(
        "FIPS 180 vectors and padding boundaries",
        arguments: [
            ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
            ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "a49b2446a02c645bf419f995b67091253a04a259"
            ),
            (String(repeating: "a", count: 55), "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
            (String(repeating: "a", count: 56), "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
            (String(repeating: "a", count: 63), "03f09f5b158a7a8cdad920bddc29b81c18a551f5"),
            (String(repeating: "a", count: 64), "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
            (String(repeating: "a", count: 65), "11655326c708d70319be2610e8a57d9a5b959d3b"),
            (String(repeating: "a", count: 1000), "291e9a6c66994949b57ba5e650361e98fc36b1ba"),
        ])
    func digest(_ message: String, _ expected: String) {
        let digest = SHA1.digest(Array(message.utf8))
        #expect(digest.count == 20)
        #expect(Self.hex(digest) == expected)
    }

    /// RFC 6455, section 1.3.
    @Test func acceptKeyOfTheRFCExample() {
        #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}

// MARK: - The opening handshake

@Suite("WebSocket: the opening handshake")
struct WebSocketHandshakeTests {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static let origin = Origin.route("routes/ws.json#0")

    /// A well-formed upgrade request with `changes` applied: a header set to nil is left out.
    static func request(_ changes: [String: String?] = [:], extra: [HTTPHeader] = []) -> MockRequest {
        var fields: [(String, String?)] = [
            ("Host", "127.0.0.1"), ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", key),
            ("Sec-WebSocket-Version", "13"),
        ]
        for (name, value) in changes {
            if let index = fields.firstIndex(where: { $0.0 == name }) {
                fields[index].1 = value
            } else {
                fields.append((name, value))
            }
        }
        let headers = fields.compactMap { name, value in value.map { HTTPHeader(name, $0) } }
        return MockRequest(method: "GET", path: "/ws/chat/lobby", headers: headers + extra)
    }

    /// The answer, and whether it took the upgrade.
    static func answer(_ request: MockRequest, subprotocols: [String] = []) -> (accepted: Bool, response: BuiltResponse) {
        switch WebSocketHandshake.answer(request, subprotocols: subprotocols, origin: origin) {
        case .accepted(let response): (true, response)
        case .refused(let response): (false, response)
        }
    }

    static func header(_ response: BuiltResponse, _ name: String) -> String? {
        response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The refusal's `error`, which every refusal has (a JSON object).
    static func error(_ response: BuiltResponse) throws -> String {
        let value = try JSONParser.parse(response.body)
        guard case .string(let message)? = value["error"] else {
            Issue.record("no error in \(String(decoding: response.body, as: UTF8.self))")
            return ""
        }
        return message
    }

    @Test func aWellFormedUpgradeIsAcceptedWithTheAcceptKey() {
        let (accepted, response) = Self.answer(Self.request())
        #expect(accepted)
        #expect(response.status == 101)
        #expect(Self.header(response, "Upgrade") == "websocket")
        #expect(Self.header(response, "Sec-WebSocket-Accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(Self.header(response, "Sec-WebSocket-Protocol") == nil, "a route without subprotocols names none")
        #expect(response.origin == Self.origin)
    }

    @Test func tokensAndNamesAreCaseInsensitiveAndListsAreSplit() {
        let request = Self.request(["Upgrade": "WebSocket", "Connection": "keep-alive, Upgrade", "Sec-WebSocket-Version": " 13 "])
        let (accepted, response) = Self.answer(request)
        #expect(accepted, "\(String(decoding: response.body, as: UTF8.self))")
        #expect(response.status == 101)
    }

    @Test func aPlainGETGets426NamingTheUpgrade() throws {
        let request = MockRequest(method: "GET", path: "/ws/chat/lobby", headers: [HTTPHeader("Host", "127.0.0.1")])
        let (accepted, response) = Self.answer(request)
        #expect(!accepted)
        #expect(response.status == 426)
        #expect(Self.header(response, "Upgrade") == "websocket")
        #expect(Self.header(response, "Sec-WebSocket-Version") == "13")
        #expect(Self.header(response, "Content-Type")?.hasPrefix("application/json") == true)
        #expect(
            try Self.error(response)
                == "/ws/chat/lobby is a WebSocket endpoint: connect with a WebSocket client (GET with Upgrade: websocket, Connection: Upgrade, Sec-WebSocket-Version: 13)"
        )
    }

    @Test func anotherVersionGets426SayingWhichOneMockdSpeaks() throws {
        let (accepted, response) = Self.answer(Self.request(["Sec-WebSocket-Version": "8"]))
        #expect(!accepted)
        #expect(response.status == 426)
        #expect(Self.header(response, "Sec-WebSocket-Version") == "13")
        #expect(try Self.error(response) == #"unsupported Sec-WebSocket-Version "8": mockd speaks version 13"#)

        let (_, missing) = Self.answer(Self.request(["Sec-WebSocket-Version": nil]))
        #expect(missing.status == 426)
        #expect(try Self.error(missing) == "unsupported Sec-WebSocket-Version none: mockd speaks version 13")
    }

    @Test func withoutConnectionUpgradeIs400() throws {
        for connection in [nil, "keep-alive"] as [String?] {
            let (accepted, response) = Self.answer(Self.request(["Connection": connection]))
            #expect(!accepted)
            #expect(response.status == 400)
            #expect(Self.header(response, "Upgrade") == nil, "only a 426 names the upgrade")
            #expect(try Self.error(response) == "a WebSocket upgrade needs Connection: Upgrade")
        }
    }

    @Test(
        "a missing or broken Sec-WebSocket-Key is 400",
        arguments: [nil, "", "not base64!", "AAECAwQFBgcICQoLDA0O", "AAECAwQFBgcICQoLDA0ODxA="] as [String?])
    func brokenKey(_ key: String?) throws {
        // The last two are 15 and 17 bytes: a key is 16.
        let (accepted, response) = Self.answer(Self.request(["Sec-WebSocket-Key": key]))
        #expect(!accepted)
        #expect(response.status == 400)
        #expect(try Self.error(response) == "a WebSocket upgrade needs Sec-WebSocket-Key: 16 random bytes in base64")
    }

    @Test func theSubprotocolIsTheClientsFirstThatTheRouteSpeaks() {
        let route = ["chat.v2", "chat.v1"]
        let (accepted, response) = Self.answer(Self.request(["Sec-WebSocket-Protocol": "other, chat.v1, chat.v2"]), subprotocols: route)
        #expect(accepted)
        #expect(Self.header(response, "Sec-WebSocket-Protocol") == "chat.v1")

        // Offers in several headers are one list, in order.
        let split = Self.request(
            ["Sec-WebSocket-Protocol": "other"],
            extra: [HTTPHeader("sec-websocket-protocol", "chat.v2"), HTTPHeader("Sec-WebSocket-Protocol", "chat.v1")])
        #expect(Self.header(Self.answer(split, subprotocols: route).response, "Sec-WebSocket-Protocol") == "chat.v2")
    }

    @Test func noSubprotocolInCommonIs400() throws {
        let (accepted, response) = Self.answer(Self.request(["Sec-WebSocket-Protocol": "chat.v3, mqtt"]), subprotocols: ["chat.v1"])
        #expect(!accepted)
        #expect(response.status == 400)
        #expect(try Self.error(response) == "no subprotocol in common: the client offers chat.v3, mqtt; this route speaks chat.v1")

        let (_, none) = Self.answer(Self.request(), subprotocols: ["chat.v1", "chat.v2"])
        #expect(none.status == 400)
        #expect(try Self.error(none) == "no subprotocol in common: the client offers none; this route speaks chat.v1, chat.v2")
    }

    @Test func aRouteWithoutSubprotocolsTakesAnyOfferAndNamesNone() {
        let (accepted, response) = Self.answer(Self.request(["Sec-WebSocket-Protocol": "chat.v1"]))
        #expect(accepted)
        #expect(Self.header(response, "Sec-WebSocket-Protocol") == nil)
    }
}

// MARK: - Decoding a route's "websocket"

@Suite("WebSocket: decoding routes and their errors")
struct WebSocketRouteDecodingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// One route.
        let route: String
        /// Every diagnostic, in order, with `{table}` for the table's path.
        let expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "websocket is not an object",
            route: #"{"path": "/ws", "websocket": "hello"}"#,
            expected: [
                #"{table}: routes[0].websocket: expected a conversation like {"onOpen": [{"text": "hello"}], "onMessage": […]}, found "hello""#
            ]),
        Case(
            name: "unknown key, with did-you-mean",
            route: #"{"path": "/ws", "websocket": {"onMesage": []}}"#,
            expected: [#"{table}: routes[0].websocket.onMesage: unknown key "onMesage"; did you mean "onMessage"?"#]),
        Case(
            name: "subprotocols: not a list, and a name that is not a token",
            route: #"{"path": "/ws", "websocket": {"subprotocols": ["chat.v1", "chat v2", 3]}}"#,
            expected: [
                #"{table}: routes[0].websocket.subprotocols[1]: expected a subprotocol name such as "graphql-transport-ws", found "chat v2""#,
                #"{table}: routes[0].websocket.subprotocols[2]: expected a subprotocol name such as "graphql-transport-ws", found 3"#,
            ]),
        Case(
            name: "subprotocols is a string",
            route: #"{"path": "/ws", "websocket": {"subprotocols": "chat.v1"}}"#,
            expected: [#"{table}: routes[0].websocket.subprotocols: expected a list of names such as ["chat.v1"], found "chat.v1""#]),
        Case(
            name: "a message with two payloads, one with none, one not an object",
            route: #"{"path": "/ws", "websocket": {"onOpen": [{"text": "a", "json": {}}, {"afterMs": 5}, "hello"]}}"#,
            expected: [
                #"{table}: routes[0].websocket.onOpen[0]: has "text" and "json"; a message has one"#,
                #"{table}: routes[0].websocket.onOpen[1]: expected "text", "json" or "base64""#,
                #"{table}: routes[0].websocket.onOpen[2]: expected a message like {"text": "hello"}, {"json": {…}} or {"base64": "AAE="}, found "hello""#,
            ]),
        Case(
            name: "text that is not a string, base64 that is not base64, a negative afterMs",
            route: #"{"path": "/ws", "websocket": {"onOpen": [{"text": 5}, {"base64": "!!"}, {"text": "x", "afterMs": -1}]}}"#,
            expected: [
                "{table}: routes[0].websocket.onOpen[0].text: expected a string, found 5",
                #"{table}: routes[0].websocket.onOpen[1].base64: expected bytes in base64 such as "AAEC", found "!!""#,
                "{table}: routes[0].websocket.onOpen[2].afterMs: expected milliseconds as a whole number 0-600000, found -1",
            ]),
        Case(
            name: "intervalMs too long",
            route: #"{"path": "/ws", "websocket": {"intervalMs": 600001}}"#,
            expected: ["{table}: routes[0].websocket.intervalMs: expected milliseconds as a whole number 0-600000, found 600001"]),
        Case(
            name: "onMessage is not a list",
            route: #"{"path": "/ws", "websocket": {"onMessage": {"reply": []}}}"#,
            expected: [
                #"{table}: routes[0].websocket.onMessage: expected a list of rules like [{"match": {"text": "ping"}, "reply": [{"text": "pong"}]}], found an object"#
            ]),
        Case(
            name: "a rule's bad regex, a match with two kinds, broadcast not a flag",
            route:
                #"{"path": "/ws", "websocket": {"onMessage": [{"match": {"regex": "(unclosed"}}, {"match": {"text": "a", "json": {}}}, {"broadcast": "yes"}]}}"#,
            expected: [
                #"{table}: routes[0].websocket.onMessage[0].match.regex: is not a valid regular expression: "(unclosed""#,
                #"{table}: routes[0].websocket.onMessage[1].match: expected one of {"json": {…}}, {"text": "…"}, {"regex": "…"} or {"base64": "…"}, found an object"#,
                #"{table}: routes[0].websocket.onMessage[2].broadcast: expected true or false, found "yes""#,
            ]),
        Case(
            name: "a match key misspelt, and a text match that is not a string",
            route: #"{"path": "/ws", "websocket": {"onMessage": [{"match": {"regx": "a"}}, {"match": {"text": 1}}]}}"#,
            expected: [
                #"{table}: routes[0].websocket.onMessage[0].match.regx: unknown key "regx"; did you mean "regex"?"#,
                "{table}: routes[0].websocket.onMessage[1].match.text: expected a string, found 1",
            ]),
        Case(
            name: "a base64 match that is not base64",
            route: #"{"path": "/ws", "websocket": {"onMessage": [{"match": {"base64": "!!"}}]}}"#,
            expected: [#"{table}: routes[0].websocket.onMessage[0].match.base64: expected bytes in base64 such as "AAEC", found "!!""#]),
        Case(
            name: "a rule's close takes no afterMessages",
            route: #"{"path": "/ws", "websocket": {"onMessage": [{"close": {"code": 1000, "afterMessages": 2}}]}}"#,
            expected: [
                #"{table}: routes[0].websocket.onMessage[0].close.afterMessages: unknown key "afterMessages"; known keys: code, reason"#
            ]),
        Case(
            name: "a close code only reported, never sent, and no time to close",
            route: #"{"path": "/ws", "websocket": {"close": {"code": 1005}}}"#,
            expected: [
                "{table}: routes[0].websocket.close.code: expected a close code: 1000-1003, 1007-1014 or 3000-4999, found 1005",
                #"{table}: routes[0].websocket.close: expected "afterMessages" or "afterMs": when to close"#,
            ]),
        Case(
            name: "a close reason longer than a close frame holds, afterMessages 0",
            route: #"{"path": "/ws", "websocket": {"close": {"reason": "\#(String(repeating: "r", count: 124))", "afterMessages": 0}}}"#,
            expected: [
                "{table}: routes[0].websocket.close.reason: is 124 bytes; a close reason fits in 123",
                "{table}: routes[0].websocket.close.afterMessages: expected a count of messages (1 or more), found 0",
                #"{table}: routes[0].websocket.close: expected "afterMessages" or "afterMs": when to close"#,
            ]),
        Case(
            name: "an unknown fault kind",
            route: #"{"path": "/ws", "websocket": {"fault": {"kind": "explode", "afterMessages": 3}}}"#,
            expected: [#"{table}: routes[0].websocket.fault.kind: expected one of "drop", "reset", "stall", found "explode""#]),
        Case(
            name: "a fault without kind or time",
            route: #"{"path": "/ws", "websocket": {"fault": {"afterMessages": 3}}}"#,
            expected: [#"{table}: routes[0].websocket.fault.kind: expected one of "drop", "reset", "stall", found nothing"#]),
        Case(
            name: "a fault without a time",
            route: #"{"path": "/ws", "websocket": {"fault": {"kind": "drop"}}}"#,
            expected: [#"{table}: routes[0].websocket.fault: expected "afterMessages" or "afterMs": when the fault happens"#]),
        Case(
            name: "websocket and response",
            route: #"{"path": "/ws", "websocket": {}, "response": {"status": 200}}"#,
            expected: [#"{table}: routes[0]: has "websocket" and "response"; a WebSocket route's conversation is its answer, keep one"#]),
        Case(
            name: "a method other than GET",
            route: #"{"method": "POST", "path": "/ws", "websocket": {}}"#,
            expected: ["{table}: routes[0].method: a WebSocket route is opened with GET, found POST"]),
    ]

    @Test("each kind of error has its exact message", arguments: cases)
    func decoding_ReportsTheExactError(_ testCase: Case) throws {
        try withRouteFixture(tables: ["x.json": routeTable(testCase.route)]) { fixture in
            let result = fixture.load()
            let expected = testCase.expected.map { $0.replacingOccurrences(of: "{table}", with: fixture.table("x.json")) }
            #expect(result.diagnostics.map(\.description) == expected)
            #expect(result.diagnostics.allSatisfy { $0.severity == .error })
            #expect(result.snapshot == nil, "a table with errors must not load")
        }
    }

    @Test func anInvalidTemplateNamesItsPlace() throws {
        try withRouteFixture(tables: ["x.json": routeTable(#"{"path": "/ws", "websocket": {"onOpen": [{"text": "{{#open}}"}]}}"#)]) {
            fixture in
            let result = fixture.load()
            #expect(result.snapshot == nil)
            let diagnostic = try #require(result.diagnostics.first)
            #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
            #expect(diagnostic.location == "routes[0].websocket.onOpen[0].text")
            #expect(diagnostic.message.hasPrefix("is not a valid template: "))
        }
    }

    @Test func aWebSocketRouteWithoutAMethodIsGETAndLoads() throws {
        let snapshot = try loadRoutes(
            tables: ["x.json": routeTable(#"{"path": "/ws", "websocket": {"onOpen": {"text": "hi"}, "subprotocols": ["chat.v1"]}}"#)])
        let route = try #require(snapshot.routes.first)
        #expect(route.methods == .only(["GET"]))
        let response = try #require(route.responses.first)
        #expect(response.status == 101)
        guard case .webSocket(let script, let origin) = response.body else {
            Issue.record("not a WebSocket route: \(response.body)")
            return
        }
        #expect(script.subprotocols == ["chat.v1"])
        #expect(script.onOpen.count == 1, "one message may stand alone, without a list")
        #expect(origin.kind == .route)
    }
}

// MARK: - The conversation

@Suite("WebSocket: the conversation's timelines")
struct WebSocketConversationTests {
    static let chat = #"""
        {"method": "GET", "path": "/ws/chat/:room", "websocket": {
          "subprotocols": ["chat.v1"],
          "onOpen": [{"json": {"type": "welcome", "room": "{{path.room}}"}}, {"text": "ready", "afterMs": 100}],
          "onMessage": [
            {"match": {"json": {"type": "subscribe"}}, "reply": [{"json": {"type": "subscribed"}}]},
            {"match": {"regex": "^say:"}, "reply": [{"text": "{{message}}"}], "broadcast": true},
            {"match": {"text": "bye"}, "close": {"code": 1000, "reason": "bye"}},
            {"match": {"regex": "^say"}, "reply": [{"text": "never: an earlier rule answers"}]},
            {"match": {"regex": "quote"}, "reply": [{"json": {"said": "{{message}}", "name": "{{json.name}}"}}]},
            {"match": {"regex": "^who"}, "reply": [{"text": "{{query.user}} via {{headers.x-client}}"}, {"text": "late", "afterMs": 30}]}
          ],
          "close": {"afterMessages": 50, "code": 1001, "reason": "server restarts"}
        }}
        """#
    static let spaced = #"""
        {"path": "/ws/spaced", "websocket": {"intervalMs": 50,
          "onOpen": [{"text": "one"}, {"text": "two"}, {"text": "three", "afterMs": 10}, {"text": "four", "afterMs": 0}]}}
        """#
    static let ending = #"""
        {"path": "/ws/ending", "websocket": {
          "onMessage": [{"reply": {"text": "ok"}}],
          "close": {"afterMessages": 3, "code": 4000, "reason": "enough"}}}
        """#
    static let faulty = #"""
        {"path": "/ws/faulty", "websocket": {
          "onMessage": [{"reply": {"text": "ok"}}],
          "close": {"afterMessages": 3, "code": 1000},
          "fault": {"kind": "reset", "afterMessages": 3}}}
        """#
    static let timed = #"""
        {"path": "/ws/timed", "websocket": {
          "close": {"afterMs": 500, "code": 1001, "reason": "later"},
          "fault": {"kind": "stall", "afterMs": 200}}}
        """#
    static let echo = #"""
        {"path": "/ws/echo", "websocket": {"onMessage": [{"reply": {"text": "got {{message}}"}}]}}
        """#

    static func snapshot() throws -> Snapshot {
        try loadRoutes(tables: ["ws.json": routeTable(chat, spaced, ending, faulty, timed, echo)])
    }

    /// The conversation the resolver starts for an upgrade of `target` (path and query).
    static func conversation(_ path: String, query: [(name: String, value: String?)] = [], headers: [HTTPHeader] = []) throws
        -> WebSocketConversation
    {
        let resolver = Resolver(snapshot: try snapshot(), state: RuntimeState())
        let request = MockRequest(
            method: "GET", path: path, query: query,
            headers: [
                HTTPHeader("Upgrade", "websocket"), HTTPHeader("Connection", "Upgrade"),
                HTTPHeader("Sec-WebSocket-Key", WebSocketHandshakeTests.key), HTTPHeader("Sec-WebSocket-Version", "13"),
                HTTPHeader("Sec-WebSocket-Protocol", "chat.v1"),
            ] + headers)
        guard case .upgrade(let upgrade) = resolver.resolve(request) else {
            throw ConversationError("\(path) was not upgraded: \(resolver.resolve(request))")
        }
        #expect(upgrade.head.status == 101)
        #expect(upgrade.path == path)
        guard case .conversation(let conversation) = upgrade.peer else { throw ConversationError("\(path) was relayed upstream") }
        return conversation
    }

    struct ConversationError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func thePlainGETOfAWebSocketRouteIsAnswered426ByTheResolver() throws {
        let resolver = Resolver(snapshot: try Self.snapshot(), state: RuntimeState())
        let resolution = resolver.resolve(MockRequest(method: "GET", path: "/ws/chat/lobby"))
        #expect(resolution.status == 426)
        #expect(resolution.source.contains("ws.json#0"), "\(resolution.source)")
    }

    @Test func theUpgradeCarriesItsSessionAndPath() throws {
        let resolver = Resolver(snapshot: try Self.snapshot(), state: RuntimeState())
        let request = MockRequest.make(
            path: "/ws/echo", session: "s1",
            headers: [
                HTTPHeader("Upgrade", "websocket"), HTTPHeader("Connection", "Upgrade"),
                HTTPHeader("Sec-WebSocket-Key", WebSocketHandshakeTests.key), HTTPHeader("Sec-WebSocket-Version", "13"),
            ])
        guard case .upgrade(let upgrade) = resolver.resolve(request) else {
            Issue.record("not upgraded")
            return
        }
        #expect(upgrade.session == "s1")
        #expect(upgrade.path == "/ws/echo")
    }

    @Test func openedRendersTheWelcomeThenWaitsForReady() throws {
        var conversation = try Self.conversation("/ws/chat/lobby")
        #expect(
            conversation.opened() == [
                [.send(.text(#"{"type":"welcome","room":"lobby"}"#)), .wait(.milliseconds(100)), .send(.text("ready"))]
            ])
    }

    @Test func intervalMsSpacesMessagesWithoutAfterMsOfTheirOwn() throws {
        var conversation = try Self.conversation("/ws/spaced")
        // The first goes at once; afterMs (10, or 0) overrides the interval.
        #expect(
            conversation.opened() == [
                [
                    .send(.text("one")), .wait(.milliseconds(50)), .send(.text("two")), .wait(.milliseconds(10)), .send(.text("three")),
                    .send(.text("four")),
                ]
            ])
    }

    @Test func timedEndingsAndFaultsAreTimelinesOfTheirOwn() throws {
        var conversation = try Self.conversation("/ws/timed")
        #expect(
            conversation.opened() == [
                [.wait(.milliseconds(500)), .close(WebSocketClose(code: 1001, reason: "later"))],
                [.wait(.milliseconds(200)), .fault(.stall)],
            ])
    }

    @Test func theFirstMatchingRuleAnswers() throws {
        var conversation = try Self.conversation("/ws/chat/lobby")
        #expect(conversation.received(.text(#"{"type": "subscribe", "topic": "news"}"#)) == [.send(.text(#"{"type":"subscribed"}"#))])
        // "say:" matches rule 1 and rule 3: rule 1 answers, alone.
        #expect(conversation.received(.text("say:hello")) == [.broadcast(.text("say:hello"))])
        #expect(conversation.received(.text("bye")) == [.close(WebSocketClose(code: 1000, reason: "bye"))])
        // Only rule 3 matches "sayonara".
        #expect(conversation.received(.text("sayonara")) == [.send(.text("never: an earlier rule answers"))])
        #expect(conversation.received(.text("nothing matches")) == [])
        // A JSON match never takes a binary message, nor text that is not JSON.
        #expect(conversation.received(.binary(Array(#"{"type": "subscribe"}"#.utf8))) == [])
        #expect(conversation.received(.text("{not json")) == [])
        #expect(conversation.received == 7)
    }

    @Test func messageIsRenderedAsSentInTextAndEscapedInJSON() throws {
        var conversation = try Self.conversation("/ws/chat/lobby")
        // Text templates do not HTML-escape.
        #expect(conversation.received(.text(#"say: <b>&"hi"</b>"#)) == [.broadcast(.text(#"say: <b>&"hi"</b>"#))])

        var echo = try Self.conversation("/ws/echo")
        #expect(echo.received(.text("ünï©ødé")) == [.send(.text("got ünï©ødé"))])
        // A binary message is base64 in a template.
        #expect(echo.received(.binary([0, 1, 2, 255])) == [.send(.text("got AAEC/w=="))])
    }

    @Test func aJSONReplyStaysJSONWhateverItInserts() throws {
        var conversation = try Self.conversation("/ws/chat/lobby")
        let message = #"{"quote": "a \"b\" \\ c", "name": "Ada"}"#
        let actions = conversation.received(.text(message))
        guard actions.count == 1, case .send(.text(let reply)) = actions[0] else {
            Issue.record("expected one reply, got \(actions)")
            return
        }
        // The message's quotes and backslashes are escaped for the JSON string; its JSON is read as `json`.
        let value = try JSONParser.parse(Array(reply.utf8))
        #expect(value["said"] == .string(message), "\(reply)")
        #expect(value["name"] == .string("Ada"), "\(reply)")
        // Text that is not JSON leaves `json` empty.
        #expect(conversation.received(.text("quote")) == [.send(.text(#"{"said":"quote","name":""}"#))])
    }

    @Test func queryAndHeadersOfTheUpgradeAreInTheTemplatesAndRepliesWaitForTheirAfterMs() throws {
        var conversation = try Self.conversation(
            "/ws/chat/lobby", query: [(name: "user", value: "ada")], headers: [HTTPHeader("X-Client", "tests")])
        #expect(
            conversation.received(.text("who?")) == [.send(.text("ada via tests")), .wait(.milliseconds(30)), .send(.text("late"))])
    }

    @Test func theRoutesCloseComesAfterItsCountOfMessages() throws {
        var conversation = try Self.conversation("/ws/ending")
        #expect(conversation.opened() == [])
        #expect(conversation.received(.text("1")) == [.send(.text("ok"))])
        #expect(conversation.received(.binary([2])) == [.send(.text("ok"))])
        #expect(conversation.received(.text("3")) == [.send(.text("ok")), .close(WebSocketClose(code: 4000, reason: "enough"))])
        #expect(conversation.received(.text("4")) == [.send(.text("ok"))], "the close comes once")
    }

    @Test func aFaultAfterItsCountOfMessagesComesInsteadOfTheClose() throws {
        var conversation = try Self.conversation("/ws/faulty")
        #expect(conversation.received(.text("1")) == [.send(.text("ok"))])
        #expect(conversation.received(.text("2")) == [.send(.text("ok"))])
        #expect(conversation.received(.text("3")) == [.send(.text("ok")), .fault(.reset)])
    }

    @Test func eachConversationCountsItsOwnMessages() throws {
        var first = try Self.conversation("/ws/ending")
        var second = try Self.conversation("/ws/ending")
        _ = first.received(.text("1"))
        _ = first.received(.text("2"))
        #expect(second.received(.text("1")) == [.send(.text("ok"))])
        #expect(first.received(.text("3")).last == .close(WebSocketClose(code: 4000, reason: "enough")))
    }

    /// A captured conversation (`steps`): sends up to the first expectation at the open, then
    /// the sends after each expectation met.
    @Test func aCapturedConversationWalksItsSteps() {
        let script = WebSocketScript(steps: [
            .send(WebSocketMessage(.text("hello"))), .expect(.text("ping")), .send(WebSocketMessage(.text("pong"), afterMilliseconds: 20)),
            .send(WebSocketMessage(.binary([1]))), .expect(.any), .send(WebSocketMessage(.text("done"))),
        ])
        var conversation = WebSocketConversation(script: script, request: MockRequest(method: "GET", path: "/ws"), parameters: [:])
        #expect(conversation.opened() == [[.send(.text("hello"))]])
        #expect(conversation.received(.text("not ping")) == [], "an unmet expectation holds the steps")
        #expect(conversation.received(.text("ping")) == [.wait(.milliseconds(20)), .send(.text("pong")), .send(.binary([1]))])
        #expect(conversation.received(.binary([9])) == [.send(.text("done"))])
        #expect(conversation.received(.text("after the end")) == [])
    }
}
