import CMicroHTTPD
import MockdCore
import MockdSystem

/// A request whose head was read and that libmicrohttpd ended before it was answered (its body
/// never all came): the completion callback is the last word on it, so it gets its one access
/// line and journal entry there, and at the idle timeout its 408.
extension HTTPServer {
    /// Called from the completion callback, before the request's state is released. Nothing is
    /// written for a request that was answered, or whose head never completed (the connection
    /// guard's own lines cover those).
    func recordUnfinished(_ state: RequestState, connection: OpaquePointer, reason: MHD_RequestTerminationCode) {
        guard state.phase == .receiving, state.loggedNanoseconds == 0, let reader = state.takeReader() else { return }
        let unfinished = UnfinishedRequest(
            cause(of: reason, on: connection), received: reader.bytesSeen, declared: reader.head.declaredLength)
        let origin = Origin.unfinished(unfinished)
        // libmicrohttpd tells the application before it shuts the socket: a client still waiting
        // for its answer reads the 408, and one that left loses nothing.
        if let answer = unfinished.answer {
            ConnectionSocket.sendLastAndShut(cmhd_connection_fd(connection), LastAnswer.timeout(answer, origin: origin))
        }
        let path = reader.head.path ?? state.target.rawPath ?? ""
        let request = reader.request(
            path: path, target: state.target,
            query: state.target.rawQuery.isEmpty ? [] : Self.queryArguments(of: connection))
        log.record(request, status: unfinished.status, origin: origin, scenario: "", state: state)
    }

    /// Why libmicrohttpd ended it, in the core's words. The guard's mark comes first: its
    /// shutdown reaches libmicrohttpd as the client's end of stream, whatever the reason was.
    private func cause(of reason: MHD_RequestTerminationCode, on connection: OpaquePointer) -> UnfinishedRequest.Cause {
        switch connections.closeReason(connection) {
        case .slowBody: return .slowBody(bytesPerSecond: configuration.minimumBodyRate)
        case .clientLeft: return .clientLeft
        case .none: break
        }
        // Compared, not switched on: how Swift imports the C enum can differ between the library's versions.
        if reason == .REQUEST_TERMINATED_TIMEOUT_REACHED { return .idleTimeout(seconds: configuration.idleTimeoutSeconds) }
        if reason == .REQUEST_TERMINATED_CLIENT_ABORT || reason == .REQUEST_TERMINATED_READ_ERROR { return .clientLeft }
        if reason == .REQUEST_TERMINATED_DAEMON_SHUTDOWN { return .stopping }
        return .connectionError
    }
}
