#if canImport(FoundationEssentials)
    import FoundationEssentials  // base64 of a binary message in templates' view
#else
    import Foundation
#endif

/// What a connection does next, in order. A list of actions is a timeline: `wait` holds the rest
/// of the list (on the adapter's timer, never a thread), every other action happens at once.
package enum WebSocketAction: Sendable, Equatable {
    case wait(Duration)
    /// To this connection.
    case send(WebSocketPayload)
    /// To every open connection of this one's session on its path, this one included.
    case broadcast(WebSocketPayload)
    /// Start the close handshake.
    case close(WebSocketClose)
    /// Break the connection as the fault says.
    case fault(WebSocketFault.Kind)
    /// The rest of the timeline goes on only while the conversation still holds `key` (a GraphQL
    /// operation the app has not stopped); `last`: the timeline, and what it carries, ends here.
    case onlyWhile(String, last: Bool)
}

/// One connection's walk through its script: the core decides every message and ending; the
/// adapter sends, waits and closes as the actions say. A value the connection owns, changed only
/// on the connection's own queue.
package struct WebSocketConversation: Sendable {
    package let script: WebSocketScript
    /// What templates read of the upgrade request.
    let parameters: [String: String]
    let query: [String: String]
    let headers: [String: String]
    /// Messages the app has sent.
    package private(set) var received = 0
    /// The next step of a captured conversation.
    private var step = 0
    /// On a GraphQL endpoint, the protocol that answers instead of a script.
    private var graphQL: GraphQLSocket?

    package init(script: WebSocketScript, request: MockRequest, parameters: [String: String]) {
        self.script = script
        self.parameters = parameters
        self.query = ResponseTemplate.queryValues(request)
        self.headers = ResponseTemplate.headerValues(request)
    }

    init(graphQL: GraphQLSocket, request: MockRequest) {
        self.init(script: WebSocketScript(), request: request, parameters: [:])
        self.graphQL = graphQL
    }

    /// Whether a timeline that goes on `onlyWhile(key)` still goes on.
    package mutating func holds(_ key: String, last: Bool) -> Bool {
        graphQL?.holds(key, last: last) ?? false
    }

    /// The timelines that start with the connection: the `onOpen` messages (or a capture's first
    /// sends), and the timed ending and fault.
    package mutating func opened() -> [[WebSocketAction]] {
        var timelines: [[WebSocketAction]] = []
        var first: [WebSocketAction] = []
        for (index, message) in script.onOpen.enumerated() {
            let after = message.afterMilliseconds ?? (index == 0 ? 0 : script.intervalMilliseconds ?? 0)
            if after > 0 { first.append(.wait(.milliseconds(after))) }
            first.append(.send(render(message, incoming: nil)))
        }
        first += stepsUntilExpectation()
        if !first.isEmpty { timelines.append(first) }
        if let ending = script.ending, let after = ending.afterMilliseconds {
            timelines.append([.wait(.milliseconds(after)), .close(ending.close)])
        }
        if let fault = script.fault, let after = fault.afterMilliseconds {
            timelines.append([.wait(.milliseconds(after)), .fault(fault.kind)])
        }
        return timelines
    }

    /// What answers one message of the app's.
    package mutating func received(_ message: WebSocketPayload) -> [WebSocketAction] {
        received += 1
        if graphQL != nil { return graphQL!.received(message) }
        var actions: [WebSocketAction] = []
        if step < script.steps.count, case .expect(let match) = script.steps[step], match.matches(message) {
            step += 1
            actions += stepsUntilExpectation()
        }
        if let rule = script.rules.first(where: { $0.match.matches(message) }) {
            for reply in rule.replies {
                if let after = reply.afterMilliseconds, after > 0 { actions.append(.wait(.milliseconds(after))) }
                let rendered = render(reply, incoming: message)
                actions.append(rule.broadcast ? .broadcast(rendered) : .send(rendered))
            }
            if let close = rule.close { actions.append(.close(close)) }
        }
        if let fault = script.fault, let count = fault.afterMessages, received == count {
            actions.append(.fault(fault.kind))
        } else if let ending = script.ending, let count = ending.afterMessages, received == count {
            actions.append(.close(ending.close))
        }
        return actions
    }

    /// A capture's sends from the current step to its next expectation.
    private mutating func stepsUntilExpectation() -> [WebSocketAction] {
        var actions: [WebSocketAction] = []
        while step < script.steps.count, case .send(let message) = script.steps[step] {
            if let after = message.afterMilliseconds, after > 0 { actions.append(.wait(.milliseconds(after))) }
            actions.append(.send(render(message, incoming: nil)))
            step += 1
        }
        return actions
    }

    /// `variables`: a GraphQL operation's, for a subscription's events (`GraphQLSocket`).
    func render(_ message: WebSocketMessage, incoming: WebSocketPayload?, variables: JSONValue? = nil) -> WebSocketPayload {
        switch message.payload {
        case .text(let text): return .text(text)
        case .binary(let bytes): return .binary(bytes)
        case .template(let template):
            var context: [String: Any] = ["path": parameters, "query": query, "headers": headers]
            if let variables { context["variables"] = variables.mustacheValue }
            switch incoming {
            case .text(let text)?:
                context["message"] = text
                if let value = try? JSONParser.parse(Array(text.utf8)) { context["json"] = value.mustacheValue }
            case .binary(let bytes)?:
                context["message"] = Data(bytes).base64EncodedString()
            case nil:
                break
            }
            return .text(template.render(context))
        }
    }
}
