// Not in a build without wslay (Package.swift).
#if !MOCKD_NO_WEBSOCKET
    import CWslay
    import MockdSystem

    /// What wslay's recv and send callbacks answer for a read or write that did not wait: the
    /// byte count, or -1 with wslay's error set (would block: try when the socket says; else the
    /// connection is over). Shared by the app's side and a relay's upstream side.
    enum WslayTransfer {
        /// `peer` names the other end in the words of `ended` ("the client", "the upstream"),
        /// which gets why reading stopped; a write passes nil.
        static func answer(
            _ transfer: ConnectionSocket.Transfer, _ context: OpaquePointer?, peer: String, ended: ((String) -> Void)? = nil
        ) -> Int {
            switch transfer {
            case .done(let count):
                return count
            case .wouldBlock:
                wslay_event_set_error(context, WSLAY_ERR_WOULDBLOCK.rawValue)
            case .ended:
                ended?("\(peer) left without a close")
                wslay_event_set_error(context, WSLAY_ERR_CALLBACK_FAILURE.rawValue)
            case .failed(let code):
                ended?("a read from \(peer) failed (errno \(code))")
                wslay_event_set_error(context, WSLAY_ERR_CALLBACK_FAILURE.rawValue)
            }
            return -1
        }
    }
#endif
