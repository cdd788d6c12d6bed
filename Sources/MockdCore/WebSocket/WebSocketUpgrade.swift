/// The core's answer to an upgrade a WebSocket route takes (or the upstream took, with
/// `--proxy`): the 101 head, and who holds the conversation the adapter then carries.
package struct WebSocketUpgrade: Sendable {
    /// Status 101 with `Upgrade`, `Sec-WebSocket-Accept` and the chosen subprotocol.
    package let head: BuiltResponse
    package let peer: Peer
    /// The session whose pushes and broadcasts reach the connection (nil: no session).
    package let session: String?
    /// The path it was opened on, as pushes name it.
    package let path: String
    package let scenario: String

    /// Who answers the app's messages.
    package enum Peer: Sendable {
        /// A route's or `.ws` file's script.
        case conversation(WebSocketConversation)
        /// The `--proxy` upstream, whose connection the adapter opened for the relay.
        case upstream
    }

    package init(head: BuiltResponse, peer: Peer, session: String?, path: String, scenario: String) {
        self.head = head
        self.peer = peer
        self.session = session
        self.path = path
        self.scenario = scenario
    }
}
