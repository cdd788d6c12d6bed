import CMicroHTTPD
import MockdCore
import MockdSystem

/// A request whose request line was read and that libmicrohttpd ended before it was answered
/// (the rest of its head, or its body, never all came): the completion callback is the last
/// word on it, so it gets its one access line and journal entry there, and at the idle timeout
/// its 408.
extension HTTPServer {
    /// Called from the completion callback, before the request's state is released. Nothing is
    /// written for a request that was answered. A connection that closes before a whole request
    /// line came has no request (the connection guard's own lines count those).
    func recordUnfinished(_ state: RequestState, connection: OpaquePointer, reason: MHD_RequestTerminationCode) {
        guard state.phase == .receiving || state.phase == .new, state.loggedNanoseconds == 0 else { return }
        let cause = cause(of: reason, on: connection)
        let unfinished: UnfinishedRequest
        let request: MockRequest
        if let reader = state.takeReader() {
            unfinished = UnfinishedRequest(cause, received: reader.bytesSeen, declared: reader.head.declaredLength)
            request = reader.request(
                path: reader.head.path ?? state.target.rawPath ?? "", target: state.target,
                query: state.target.rawQuery.isEmpty ? [] : Self.queryArguments(of: connection))
        } else {
            // No reader: the head never completed (or completed as the guard closed the
            // connection). All that is known is its path as sent; its method and headers never
            // came, except the session a session's port gives every request.
            unfinished = .head(cause)
            request = MockRequest(
                method: "-", path: state.sentPath, rawQuery: state.target.rawQuery,
                headers: state.sessionPort.map { [$0.header] } ?? [])
        }
        let origin = Origin.unfinished(unfinished)
        // libmicrohttpd tells the application before it shuts the socket: a client still waiting
        // for its answer reads the 408, and one that left loses nothing.
        if let answer = unfinished.answer {
            ConnectionSocket.sendLastAndShut(cmhd_connection_fd(connection), LastAnswer.timeout(answer, origin: origin))
        }
        log.record(request, status: unfinished.status, origin: origin, scenario: "", state: state)
    }

    /// Why libmicrohttpd ended it, in the core's words. The guard's mark comes first: its
    /// shutdown reaches libmicrohttpd as the client's end of stream, whatever the reason was.
    private func cause(of reason: MHD_RequestTerminationCode, on connection: OpaquePointer) -> UnfinishedRequest.Cause {
        if let cause = connections.closeCause(connection) { return cause }
        // Compared, not switched on: how Swift imports the C enum can differ between the library's versions.
        if reason == .REQUEST_TERMINATED_TIMEOUT_REACHED { return .idleTimeout(seconds: configuration.idleTimeoutSeconds) }
        if reason == .REQUEST_TERMINATED_CLIENT_ABORT || reason == .REQUEST_TERMINATED_READ_ERROR { return .clientLeft }
        if reason == .REQUEST_TERMINATED_DAEMON_SHUTDOWN { return .stopping }
        return .connectionError
    }
}
