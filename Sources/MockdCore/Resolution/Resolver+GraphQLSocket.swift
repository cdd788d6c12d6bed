extension Resolver {
    /// A WebSocket upgrade to a GraphQL endpoint: taken with `graphql-transport-ws` (or
    /// `graphql-ws`), whose operations `GraphQLSocket` answers as their HTTP requests would be.
    func graphQLSocket(_ request: MockRequest, scenario: String) -> Resolution {
        let origin = Origin.operation("graphql websocket " + GraphQLTable.endpointKey(request.path))
        switch WebSocketHandshake.answer(request, subprotocols: GraphQLSocket.subprotocols, origin: origin) {
        case .accepted(let head):
            let socket = GraphQLSocket(subprotocol: head.headers.first(named: "Sec-WebSocket-Protocol"), upgrade: request, resolver: self)
            let conversation = WebSocketConversation(graphQL: socket, request: request)
            return .upgrade(
                WebSocketUpgrade(
                    head: head, peer: .conversation(conversation), session: request.session, path: request.path, scenario: scenario))
        case .refused(let refusal):
            return .respond(Reply(.built(refusal), scenario: scenario))
        }
    }
}
