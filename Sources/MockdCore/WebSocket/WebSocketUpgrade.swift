/// The core's answer to an upgrade a WebSocket route takes: the 101 head, and the conversation
/// the adapter then holds on the connection.
package struct WebSocketUpgrade: Sendable {
    /// Status 101 with `Upgrade`, `Sec-WebSocket-Accept` and the chosen subprotocol.
    package let head: BuiltResponse
    package let conversation: WebSocketConversation
    /// The session whose pushes and broadcasts reach the connection (nil: no session).
    package let session: String?
    /// The path it was opened on, as pushes name it.
    package let path: String
    package let scenario: String

    package init(head: BuiltResponse, conversation: WebSocketConversation, session: String?, path: String, scenario: String) {
        self.head = head
        self.conversation = conversation
        self.session = session
        self.path = path
        self.scenario = scenario
    }
}
