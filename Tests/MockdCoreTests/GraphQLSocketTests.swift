import MockdCore
import Testing

/// The core's side of GraphQL over WebSocket: the upgrade a GraphQL endpoint takes, the protocol's
/// messages and the timelines each operation's answer becomes, and `graphql/<Operation>.ws` files
/// at load. Over a real socket: `GraphQLSubscriptionTests` (MockdHTTPTests) and `gql_test.py`.
@Suite("GraphQL over WebSocket (core)")
struct GraphQLSocketTests {
    static func upgrade(protocols: String = "graphql-transport-ws") -> MockRequest {
        request(
            "GET", "/graphql",
            headers: [
                ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"),
                ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Protocol", protocols), ("X-Mock-Session", "s1"),
            ])
    }

    static func conversation(_ snapshot: Snapshot, protocols: String = "graphql-transport-ws") throws -> WebSocketConversation {
        guard case .upgrade(let upgrade) = Resolver(snapshot: snapshot, state: RuntimeState()).resolve(Self.upgrade(protocols: protocols)),
            case .conversation(let conversation) = upgrade.peer
        else {
            Issue.record("no upgrade")
            throw CancellationError()
        }
        #expect(upgrade.head.headers.first(named: "Sec-WebSocket-Protocol") == protocols.split(separator: ",").first.map(String.init))
        #expect(upgrade.session == "s1")
        return conversation
    }

    @Test func aQueryIsOneResultAndComplete_ASubscriptionsEventsAreGatedAndStayOpen() throws {
        let table = routeTable(
            #"{"path": "/graphql", "graphql": {"operation": "OnTick"}, "response": {"stream": {"events": [{"data": {"data": {"n": 1}}}, {"data": {"data": {"n": 2}}, "delayMs": 40}]}}}"#
        )
        var conversation = try Self.conversation(try GraphQLTests.snapshot(tables: ["t.json": table]))
        let ack = conversation.received(.text(#"{"type": "connection_init"}"#))
        #expect(ack == [.send(.text(#"{"type":"connection_ack"}"#))])
        let query = conversation.received(
            .text(#"{"id": "a", "type": "subscribe", "payload": {"query": "query GetFeed { feed { id } }"}}"#))
        #expect(
            query == [
                .onlyWhile("a#0", last: true),
                .send(.text(#"{"id":"a","type":"next","payload":{"data":{"feed":[{"__typename":"Post","id":"1"}]}}}"#)),
                .send(.text(#"{"id":"a","type":"complete"}"#)),
            ])
        let queryRuns = conversation.holds("a#0", last: true)
        #expect(queryRuns)
        let queryRunsAfterItsEnd = conversation.holds("a#0", last: false)
        #expect(!queryRunsAfterItsEnd, "a finished operation's timeline does not go on")
        let ticks = conversation.received(.text(#"{"id": "b", "type": "subscribe", "payload": {"query": "subscription OnTick { n }"}}"#))
        #expect(
            ticks == [
                .onlyWhile("b#1", last: false), .send(.text(#"{"id":"b","type":"next","payload":{"data":{"n":1}}}"#)),
                .wait(.milliseconds(40)), .onlyWhile("b#1", last: false),
                .send(.text(#"{"id":"b","type":"next","payload":{"data":{"n":2}}}"#)),
            ])
        let subscriptionRuns = conversation.holds("b#1", last: false)
        #expect(subscriptionRuns)
        let stopped = conversation.received(.text(#"{"id": "b", "type": "complete"}"#))
        #expect(stopped == [])
        let subscriptionRunsAfterStop = conversation.holds("b#1", last: false)
        #expect(!subscriptionRunsAfterStop, "stopped by the app")
        let pong = conversation.received(.text(#"{"type": "ping"}"#))
        #expect(pong == [.send(.text(#"{"type":"pong"}"#))])
    }

    @Test func theProtocolsRefusals() throws {
        let snapshot = try GraphQLTests.snapshot()
        var early = try Self.conversation(snapshot)
        #expect(
            early.received(.text(#"{"id": "1", "type": "subscribe", "payload": {"query": "{ a }"}}"#))
                == [.close(WebSocketClose(code: 4401, reason: "Unauthorized"))])
        var twice = try Self.conversation(snapshot)
        _ = twice.received(.text(#"{"type": "connection_init"}"#))
        #expect(
            twice.received(.text(#"{"type": "connection_init"}"#))
                == [.close(WebSocketClose(code: 4429, reason: "Too many initialisation requests"))])
        for bad in [#"{"id": "1", "type": "subscribe"}"#, "not json", #"{"type": "start"}"#, #"{"kind": "x"}"#] {
            var conversation = try Self.conversation(snapshot)
            _ = conversation.received(.text(#"{"type": "connection_init"}"#))
            guard case .close(let close)? = conversation.received(.text(bad)).first else {
                Issue.record("\(bad): not closed")
                continue
            }
            #expect(close.code == 4400, "\(bad)")
        }
        var binary = try Self.conversation(snapshot)
        guard case .close(let close)? = binary.received(.binary([1, 2])).first else {
            Issue.record("binary: not closed")
            return
        }
        #expect(close.code == 4400)
    }

    @Test func theOlderProtocolsWords() throws {
        var conversation = try Self.conversation(try GraphQLTests.snapshot(), protocols: "graphql-ws, graphql-transport-ws")
        _ = conversation.received(.text(#"{"type": "connection_init"}"#))
        let started = conversation.received(.text(#"{"id": "1", "type": "start", "payload": {"query": "query GetFeed { feed { id } }"}}"#))
        #expect(started.contains(.send(.text(#"{"id":"1","type":"data","payload":{"data":{"feed":[{"__typename":"Post","id":"1"}]}}}"#))))
        #expect(started.last == .send(.text(#"{"id":"1","type":"complete"}"#)))
        let missing = conversation.received(.text(#"{"id": "2", "type": "start", "payload": {"query": "query Nope { a }"}}"#))
        guard case .send(.text(let error)) = missing[1] else {
            Issue.record("\(missing)")
            return
        }
        #expect(error.hasPrefix(#"{"id":"2","type":"error","payload":{"message":"no mock for query Nope"#), "\(error)")
        let unknown = conversation.received(.text(#"{"type": "what"}"#))
        #expect(unknown.first.map { if case .send = $0 { true } else { false } } == true, "\(unknown)")
        #expect(
            conversation.received(.text(#"{"type": "connection_terminate"}"#)) == [.close(WebSocketClose(code: 1000, reason: "terminated"))]
        )
    }

    @Test func aWsOperationFile_IsCheckedAtLoad() throws {
        try withRouteFixture(files: [
            "graphql/OnA.ws": #"{"send": {"json": {"data": {}}}}"# + "\n" + #"{"expect": {"text": "x"}}"#,
            "graphql/OnB.ws": #"{"send": {"jsn": {}}}"#,
        ]) { fixture in
            var loader = MockDataLoader(files: fixture.folder.files, root: fixture.root, routes: fixture.routes)
            loader.graphQL = GraphQLConfiguration(endpoints: ["/graphql"], reader: HeadingsReader())
            let messages = loader.load().diagnostics.map(\.description)
            #expect(messages.contains { $0.contains("graphql/OnA.ws") && $0.contains("has an expect line") }, "\(messages)")
            #expect(messages.contains { $0.contains("graphql/OnB.ws") && $0.contains("line 1.send.jsn") }, "\(messages)")
        }
    }
}
