/// GraphQL over WebSocket on a GraphQL endpoint: the `graphql-transport-ws` protocol (and the
/// older `graphql-ws` one that Apollo iOS also speaks). Each operation the app starts is answered
/// as the same operation sent over HTTP would be — stubs, routes, files, the schema, in that
/// order, for the upgrade's session and scenario — and its answer goes as messages: a query's or
/// a mutation's as one result and `complete`; a subscription's as one result per event (a route's
/// `stream` events, a `graphql/<Operation>.ws` file's sends, or its one answer), spaced as they
/// say, after which it stays open, as a server's does, until the app stops it.
///
/// A value the connection owns (inside its `WebSocketConversation`), changed only on its queue.
package struct GraphQLSocket: Sendable {
    /// The subprotocols, in mockd's order of preference.
    package static let subprotocols = ["graphql-transport-ws", "graphql-ws"]

    enum Dialect {
        /// `graphql-transport-ws`: `subscribe`, `next`, `error`, `complete`, `ping`/`pong`.
        case transport
        /// `graphql-ws` (subscriptions-transport-ws): `start`, `data`, `error`, `complete`, `stop`.
        case legacy
    }

    let dialect: Dialect
    /// The upgrade request: its path, session, scenario and headers go with every operation.
    let upgrade: MockRequest
    /// The resolver of the snapshot the socket opened on: a socket keeps its configuration.
    let resolver: Resolver
    private var acknowledged = false
    /// Operations running, by the app's id: the key their timelines go on with.
    private var running: [String: String] = [:]
    private var started = 0

    init(subprotocol: String?, upgrade: MockRequest, resolver: Resolver) {
        self.dialect = subprotocol == "graphql-ws" ? .legacy : .transport
        self.upgrade = upgrade
        self.resolver = resolver
    }

    /// Whether the operation whose timeline carries `key` still runs; `last`: the timeline ends
    /// here, and so does the operation.
    mutating func holds(_ key: String, last: Bool) -> Bool {
        guard let id = running.first(where: { $0.value == key })?.key else { return false }
        if last { running[id] = nil }
        return true
    }

    /// What answers one message of the app's.
    mutating func received(_ incoming: WebSocketPayload) -> [WebSocketAction] {
        guard case .text(let text) = incoming, let value = try? JSONParser.parse(text), case .string(let type)? = value["type"] else {
            return invalid("expected a JSON object with a \"type\", as graphql-transport-ws messages are")
        }
        let id: String? = if case .string(let id)? = value["id"] { id } else { nil }
        switch (dialect, type) {
        case (_, "connection_init"):
            // A second init is the protocol's 4429 (graphql-ws tolerates it).
            if acknowledged && dialect == .transport {
                return [.close(WebSocketClose(code: 4429, reason: "Too many initialisation requests"))]
            }
            acknowledged = true
            return [.send(Self.message(type: "connection_ack"))]
        case (.transport, "ping"):
            return [.send(Self.message(type: "pong"))]
        case (.transport, "pong"):
            return []
        case (.transport, "subscribe"), (.legacy, "start"):
            guard acknowledged else { return [.close(WebSocketClose(code: 4401, reason: "Unauthorized"))] }
            guard let id, !id.isEmpty, let payload = value["payload"], payload.isObject else {
                return invalid("\(type) needs an \"id\" and a \"payload\" object {\"query\": …}")
            }
            if running[id] != nil && dialect == .transport {
                return [.close(WebSocketClose(code: 4409, reason: "Subscriber for \(Self.shortened(id)) already exists"))]
            }
            return start(id: id, payload: payload)
        case (.transport, "complete"), (.legacy, "stop"):
            guard let id else { return invalid("\(type) needs the \"id\" of the operation") }
            let wasRunning = running.removeValue(forKey: id) != nil
            // subscriptions-transport-ws confirms a stop; graphql-transport-ws does not.
            return dialect == .legacy && wasRunning ? [.send(message(type: "complete", id: id))] : []
        case (.legacy, "connection_terminate"):
            return [.close(WebSocketClose(code: 1000, reason: "terminated"))]
        default:
            return invalid("unknown message type \(JSONText.quoted(Self.shortened(type)))")
        }
    }

    /// A message the protocol has no place for: graphql-transport-ws closes with 4400, graphql-ws
    /// answers `connection_error`.
    private func invalid(_ why: String) -> [WebSocketAction] {
        switch dialect {
        case .transport: [.close(WebSocketClose(code: 4400, reason: Self.reason(why)))]
        case .legacy: [.send(Self.message(type: "connection_error", payload: .object([("message", .string(why))])))]
        }
    }

    /// Resolves the operation as its HTTP request, and makes its answer a timeline.
    private mutating func start(id: String, payload: JSONValue) -> [WebSocketAction] {
        var headers = upgrade.headers.filter { header in
            !Self.upgradeHeaders.contains { HTTPHeader.namesEqual(header.name, $0) }
        }
        headers.append(HTTPHeader("Content-Type", "application/json"))
        let request = MockRequest(method: "POST", path: upgrade.path, headers: headers, body: Array(payload.serialized.utf8))
        let key = id + "#" + String(started)
        started += 1
        running[id] = key
        let subscription = Self.isSubscription(payload, reader: resolver.snapshot.graphQL.reader)
        let answer = Self.answer(resolver.resolve(request), upgrade: upgrade, variables: payload["variables"])
        return timeline(answer, id: id, key: key, subscription: subscription)
    }

    private func timeline(_ answer: SocketAnswer, id: String, key: String, subscription: Bool) -> [WebSocketAction] {
        var actions: [WebSocketAction] = []
        func wait(_ delay: Duration) { if delay > .zero { actions.append(.wait(delay)) } }
        switch answer {
        case .results(let results):
            for (index, result) in results.enumerated() {
                wait(result.delay)
                let ends = !subscription && index == results.count - 1
                actions += [
                    .onlyWhile(key, last: ends),
                    .send(message(type: dialect == .legacy ? "data" : "next", id: id, payload: result.payload)),
                ]
                if ends { actions.append(.send(message(type: "complete", id: id))) }
            }
            if results.isEmpty && !subscription { actions += [.onlyWhile(key, last: true), .send(message(type: "complete", id: id))] }
        case .errors(let errors, let delay):
            wait(delay)
            // An operation that fails before it runs ends with its `error`; graphql-ws then completes it.
            let payload = dialect == .legacy ? (errors.first ?? .object([])) : .array(errors)
            actions += [.onlyWhile(key, last: true), .send(message(type: "error", id: id, payload: payload))]
            if dialect == .legacy { actions.append(.send(message(type: "complete", id: id))) }
        case .fault(let kind, let delay):
            wait(delay)
            actions += [.onlyWhile(key, last: true), .fault(kind)]
        }
        return actions
    }

    /// What an operation's HTTP answer becomes on the socket.
    enum SocketAnswer {
        /// Results (`next`), each after its delay.
        case results([(delay: Duration, payload: JSONValue)])
        /// The operation fails (`error`), after the delay.
        case errors([JSONValue], delay: Duration)
        /// A route's fault: the network breaks instead.
        case fault(WebSocketFault.Kind, delay: Duration)
    }

    static func answer(_ resolution: Resolution, upgrade: MockRequest, variables: JSONValue?) -> SocketAnswer {
        switch resolution {
        case .respond(let reply): return answer(reply, after: .zero, upgrade: upgrade, variables: variables)
        case .respondAfter(let delay, let reply): return answer(reply, after: delay, upgrade: upgrade, variables: variables)
        case .thenPush(let answer, _): return Self.answer(answer, upgrade: upgrade, variables: variables)
        case .fault(let fault, _, let delay):
            let kind: WebSocketFault.Kind =
                switch fault {
                case .reset: .reset
                case .timeout: .stall
                case .truncated: .drop
                }
            return .fault(kind, delay: delay)
        case .forward:
            return .errors([error("no mock for this operation; --proxy does not forward operations sent over WebSocket")], delay: .zero)
        case .admin, .upgrade, .relay:
            return .errors([error("this operation has no answer over WebSocket")], delay: .zero)
        }
    }

    private static func answer(_ reply: Reply, after delay: Duration, upgrade: MockRequest, variables: JSONValue?) -> SocketAnswer {
        switch reply.response {
        case .prepared(let prepared):
            if let conversation = prepared.conversation {
                return events(of: conversation.script, after: delay, upgrade: upgrade, variables: variables)
            }
            return result(status: prepared.status, body: prepared.body.array, after: delay)
        case .built(let built):
            return result(status: built.status, body: built.body, after: delay)
        case .streamed(let streamed):
            var results: [(delay: Duration, payload: JSONValue)] = []
            for (index, piece) in streamed.stream.pieces.enumerated() {
                let text =
                    streamed.stream.unit == "events"
                    ? ServerSentEventData.data(of: piece.bytes) : String(decoding: piece.bytes, as: UTF8.self)
                guard let payload = try? JSONParser.parse(text), payload.isObject else {
                    return .errors([error("event \(index + 1) of the stream is not a JSON object such as {\"data\": …}")], delay: delay)
                }
                results.append(((index == 0 ? delay : .zero) + (piece.delay?.sample() ?? .zero), payload))
            }
            return .results(results)
        }
    }

    /// A `graphql/<Operation>.ws` file's sends, as results.
    private static func events(of script: WebSocketScript, after delay: Duration, upgrade: MockRequest, variables: JSONValue?)
        -> SocketAnswer
    {
        let conversation = WebSocketConversation(script: script, request: upgrade, parameters: [:])
        var results: [(delay: Duration, payload: JSONValue)] = []
        for step in script.steps {
            guard case .send(let message) = step else { continue }
            let wait = (results.isEmpty ? delay : .zero) + .milliseconds(message.afterMilliseconds ?? 0)
            guard case .text(let text) = conversation.render(message, incoming: nil, variables: variables),
                let payload = try? JSONParser.parse(text), payload.isObject
            else {
                return .errors([error("send \(results.count + 1) of the file is not a JSON object such as {\"data\": …}")], delay: delay)
            }
            results.append((wait, payload))
        }
        return .results(results)
    }

    /// A 2xx JSON object is the result; any other answer fails the operation with its `errors`.
    private static func result(status: Int, body: [UInt8], after delay: Duration) -> SocketAnswer {
        let value = try? JSONParser.parse(body)
        if (200..<300).contains(status), let value, value.isObject { return .results([(delay, value)]) }
        if case .array(let errors)? = value?["errors"], !errors.isEmpty { return .errors(errors, delay: delay) }
        return .errors([error("the operation's answer has status \(status) and no errors")], delay: delay)
    }

    /// A subscription stays open after its results; a query or mutation completes. Named by the
    /// document's one operation (or the one `operationName` names) when the snapshot has a reader,
    /// else by the document's first word.
    static func isSubscription(_ payload: JSONValue, reader: (any GraphQLDocumentReader)?) -> Bool {
        guard case .string(let query)? = payload["query"] else { return false }
        let name: String? = if case .string(let name)? = payload["operationName"] { name } else { nil }
        if let reader, let operations = try? reader.operations(in: query), !operations.isEmpty {
            let operation = operations.first { name == nil || $0.name == name } ?? operations[0]
            return operation.kind == "subscription"
        }
        return query.drop { $0.isWhitespace }.hasPrefix("subscription")
    }

    /// The upgrade's own headers, which an operation's request does not carry.
    private static let upgradeHeaders = [
        "Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version", "Sec-WebSocket-Protocol", "Sec-WebSocket-Extensions",
        "Content-Length", "Content-Type",
    ]

    private func message(type: String, id: String, payload: JSONValue? = nil) -> WebSocketPayload {
        var members: [(key: String, value: JSONValue)] = [("id", .string(id)), ("type", .string(type))]
        if let payload { members.append(("payload", payload)) }
        return .text(JSONValue.object(members).serialized)
    }

    private static func message(type: String, payload: JSONValue? = nil) -> WebSocketPayload {
        var members: [(key: String, value: JSONValue)] = [("type", .string(type))]
        if let payload { members.append(("payload", payload)) }
        return .text(JSONValue.object(members).serialized)
    }

    private static func error(_ message: String) -> JSONValue {
        .object([("message", .string(message))])
    }

    /// A close reason is at most 123 bytes.
    private static func reason(_ text: String) -> String {
        var reason = ""
        for character in text {
            guard reason.utf8.count + character.utf8.count <= 123 else { break }
            reason.append(character)
        }
        return reason
    }

    private static func shortened(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}

/// The `data` of one server-sent event as it goes on the wire: its `data:` lines joined.
enum ServerSentEventData {
    static func data(of bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines: [Substring] = []
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: ResponseStream.endsLine) where line.hasPrefix("data:") {
            let value = line.dropFirst("data:".count)
            lines.append(value.first == " " ? value.dropFirst() : value)
        }
        return lines.joined(separator: "\n")
    }
}
