import Foundation
import Testing
import TestSupport

/// GraphQL over WebSocket on a `--graphql` endpoint, on a real server with a client written from
/// RFC 6455: `graphql-transport-ws` and the older `graphql-ws`, each operation answered as its HTTP
/// request would be (routes' stream events, `.ws` files, `.json` files, stubs per session).
@Suite("GraphQL subscriptions over WebSocket")
struct GraphQLSubscriptionTests {
    static let files = [
        "graphql/GetFeed.json": #"{"data": {"feed": [{"__typename": "Post", "id": "1"}]}}"#,
        "graphql/OnComment.ws": """
        {"send": {"json": {"data": {"commentAdded": {"__typename": "Comment", "id": "c1"}}}}}
        {"send": {"json": {"data": {"commentAdded": {"__typename": "Comment", "id": "c2", "post": "{{variables.post}}"}}}}, "afterMs": 20}
        """,
    ]
    static let table = #"""
        {"routes": [
          {"path": "/graphql", "graphql": {"operation": "OnScore"},
           "response": {"stream": {"events": [{"data": {"data": {"score": {"home": 1}}}},
                                              {"data": {"data": {"score": {"home": 2}}}, "delayMs": 300}]}}},
          {"path": "/graphql", "graphql": {"operation": "SlowFeed"},
           "response": {"json": {"data": {"feed": []}}, "delayMs": 900}},
          {"path": "/graphql", "graphql": {"operation": "OnQuiet"}, "response": {"json": {"data": {"quiet": true}}}},
          {"path": "/graphql", "graphql": {"operation": "Broken"}, "response": {"json": {}, "fault": "reset"}}
        ]}
        """#

    static func withServer(_ body: (RouteServer) async throws -> Void) async throws {
        try await withRouteServer(files: files, tables: ["graphql.json": table], graphQL: ["/graphql"], body)
    }

    static func open(
        _ server: RouteServer, protocols: [String] = ["graphql-transport-ws"], headers: [(String, String)] = []
    ) async throws -> WebSocketClient {
        let client = try await WebSocketClient.open(port: server.port, target: "/graphql", headers: headers, subprotocols: protocols)
        #expect(client.handshake.status == 101, "\(client.handshake)")
        return client
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    static func subscribe(_ id: String, _ query: String, name: String? = nil) -> String {
        var payload: [String: Any] = ["query": query]
        if let name { payload["operationName"] = name }
        let data = try! JSONSerialization.data(withJSONObject: ["id": id, "type": "subscribe", "payload": payload])
        return String(decoding: data, as: UTF8.self)
    }

    /// connection_init, and the ack read.
    static func initialise(_ client: WebSocketClient) async throws {
        try client.send(text: #"{"type": "connection_init", "payload": {}}"#)
        #expect(try await client.run { try $0.readText() } == #"{"type":"connection_ack"}"#)
    }

    @Test func aSubscriptionsEventsComeInOrderAndItStaysOpen() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, protocols: ["other", "graphql-transport-ws"])
            #expect(client.handshake.header("Sec-WebSocket-Protocol") == "graphql-transport-ws")
            #expect(client.handshake.header("X-Mockd-Source") == "graphql websocket /graphql")
            try await Self.initialise(client)
            try client.send(text: #"{"type": "ping"}"#)
            #expect(try await client.run { try $0.readText() } == #"{"type":"pong"}"#)
            try client.send(text: Self.subscribe("s1", "subscription OnScore { score { home } }"))
            let events = try await client.run { [try $0.readText(), try $0.readText()] }
            #expect(events[0] == #"{"id":"s1","type":"next","payload":{"data":{"score":{"home":1}}}}"#)
            #expect(events[1] == #"{"id":"s1","type":"next","payload":{"data":{"score":{"home":2}}}}"#)
            // Still open: a query after it is answered, and completes.
            try client.send(text: Self.subscribe("q1", "query GetFeed { feed { id } }"))
            let answer = try await client.run { [try $0.readText(), try $0.readText()] }
            #expect(answer[0] == #"{"id":"q1","type":"next","payload":{"data":{"feed":[{"__typename":"Post","id":"1"}]}}}"#)
            #expect(answer[1] == #"{"id":"q1","type":"complete"}"#)
            try client.sendClose()
            _ = try await client.run { try $0.readToEnd() }
        }
    }

    @Test func theAppsCompleteStopsTheEventsStillToCome() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server)
            try await Self.initialise(client)
            // In one write, so mockd reads the stop in the same turn as the start, before any timer:
            // the first event goes at once, the second (due 300 ms later) never.
            try client.sendRaw(
                WebSocketClient.frame(.text, Array(Self.subscribe("s1", "subscription OnScore { score { home } }").utf8))
                    + WebSocketClient.frame(.text, Array(#"{"id": "s1", "type": "complete"}"#.utf8)))
            #expect(try await client.run { try $0.readText() }.contains(#""home":1"#))
            // This answer is due 900 ms after it is asked, after the second event would have been.
            try client.send(text: Self.subscribe("q2", "query SlowFeed { feed { id } }"))
            let next = try await client.run { [try $0.readText(), try $0.readText()] }
            #expect(next == [#"{"id":"q2","type":"next","payload":{"data":{"feed":[]}}}"#, #"{"id":"q2","type":"complete"}"#])
            // The id is free again once stopped.
            try client.send(text: Self.subscribe("s1", "subscription OnComment { commentAdded { id } }"))
            #expect(try await client.run { try $0.readText() }.contains(#""id":"c1""#))
        }
    }

    @Test func aWsFileGivesTheEventsAndHTTPIsToldToSubscribe() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server)
            try await Self.initialise(client)
            try client.send(
                text:
                    #"{"id": "7", "type": "subscribe", "payload": {"query": "subscription OnComment($post: ID!) { commentAdded(post: $post) { id } }", "variables": {"post": "p9"}}}"#
            )
            let events = try await client.run { [try $0.readText(), try $0.readText()] }
            #expect(events[0] == #"{"id":"7","type":"next","payload":{"data":{"commentAdded":{"__typename":"Comment","id":"c1"}}}}"#)
            #expect(
                events[1] == #"{"id":"7","type":"next","payload":{"data":{"commentAdded":{"__typename":"Comment","id":"c2","post":"p9"}}}}"#
            )
            let http = try await server.request(
                "POST", "/graphql", headers: ["Content-Type": "application/json"],
                body: Data(#"{"query": "subscription OnComment { commentAdded { id } }"}"#.utf8))
            #expect(http.status == 400)
            #expect(http.text.contains("OnComment is answered over WebSocket"), "\(http.text)")
        }
    }

    @Test func aStubOfTheUpgradesSessionAnswersItsOperations() async throws {
        try await Self.withServer { server in
            let stub =
                #"{"path": "/graphql", "graphql": {"operation": "GetFeed"}, "response": {"json": {"data": {"feed": []}}}, "session": "sim-9"}"#
            let added = try await server.request("POST", "/__mockd/stubs", body: Data(stub.utf8))
            #expect(added.status == 201, "\(added.text)")
            let mine = try await Self.open(server, headers: [("X-Mock-Session", "sim-9")])
            let other = try await Self.open(server)
            for client in [mine, other] {
                try await Self.initialise(client)
                try client.send(text: Self.subscribe("1", "query GetFeed { feed { id } }"))
            }
            #expect(try await mine.run { try $0.readText() } == #"{"id":"1","type":"next","payload":{"data":{"feed":[]}}}"#)
            #expect(try await other.run { try $0.readText() }.contains(#""__typename":"Post""#))
            #expect(try await other.run { try $0.readText() } == #"{"id":"1","type":"complete"}"#)
        }
    }

    @Test func anOperationNothingAnswersGetsAnErrorAndAFaultBreaksTheSocket() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server)
            try await Self.initialise(client)
            try client.send(text: Self.subscribe("m", "subscription OnNothing { x }"))
            let error = try Self.object(try await client.run { try $0.readText() })
            #expect(error["type"] as? String == "error")
            #expect(error["id"] as? String == "m")
            let message = ((error["payload"] as? [[String: Any]])?.first?["message"] as? String) ?? ""
            #expect(message.contains("no mock for subscription OnNothing"), "\(error)")
            try client.send(text: Self.subscribe("b", "query Broken { x }"))
            let end = try await client.run { try $0.readToEnd() }
            #expect(end == .reset, "\(end)")
        }
    }

    @Test func theProtocolsRulesCloseWithItsCodes() async throws {
        try await Self.withServer { server in
            let early = try await Self.open(server)
            try early.send(text: Self.subscribe("1", "query GetFeed { feed { id } }"))
            #expect(try await early.run { try $0.readClose() }.code == 4401)
            let twice = try await Self.open(server)
            try await Self.initialise(twice)
            try twice.send(text: Self.subscribe("1", "subscription OnQuiet { quiet }"))
            #expect(try await twice.run { try $0.readText() } == #"{"id":"1","type":"next","payload":{"data":{"quiet":true}}}"#)
            // Its one event sent, a subscription stays open: the id is taken.
            try twice.send(text: Self.subscribe("1", "subscription OnQuiet { quiet }"))
            let duplicate = try await twice.run { try $0.readClose() }
            #expect(duplicate.code == 4409 && duplicate.reason == "Subscriber for 1 already exists", "\(duplicate)")
            let garbage = try await Self.open(server)
            try garbage.send(text: "hello")
            #expect(try await garbage.run { try $0.readClose() }.code == 4400)
            let unknown = try await WebSocketClient.open(port: server.port, target: "/graphql", subprotocols: ["chat.v1"])
            #expect(unknown.handshake.status == 400)
        }
    }

    @Test func theOlderGraphqlWsProtocolToo() async throws {
        try await Self.withServer { server in
            let client = try await Self.open(server, protocols: ["graphql-ws"])
            #expect(client.handshake.header("Sec-WebSocket-Protocol") == "graphql-ws")
            try await Self.initialise(client)
            // Start and stop in one write, read in one turn: the first event, then the stop's complete.
            try client.sendRaw(
                WebSocketClient.frame(
                    .text, Array(#"{"id": "1", "type": "start", "payload": {"query": "subscription OnScore { score { home } }"}}"#.utf8))
                    + WebSocketClient.frame(.text, Array(#"{"id": "1", "type": "stop"}"#.utf8)))
            #expect(try await client.run { try $0.readText() } == #"{"id":"1","type":"data","payload":{"data":{"score":{"home":1}}}}"#)
            #expect(try await client.run { try $0.readText() } == #"{"id":"1","type":"complete"}"#)
            try client.send(text: #"{"type": "connection_terminate"}"#)
            #expect(try await client.run { try $0.readClose() }.code == 1000)
        }
    }
}
