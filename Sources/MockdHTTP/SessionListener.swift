import MockdCore
import Synchronization

/// One session's port: what its daemon's request-line callback gets as its context. Requests
/// there belong to the session (`X-Mock-Session` is set to it, whatever the app sent).
final class SessionListener: Sendable {
    /// Unowned: the server owns its session daemons, which stop before it goes.
    unowned(unsafe) let server: HTTPServer
    let id: String
    /// The header every request on this port carries, made once.
    let header: HTTPHeader
    /// Where this port is in its life: starting while its daemon starts, running once it is in
    /// the table, draining while it closes (nothing on it may be suspended again, a stream
    /// sends what is left at once, as when mockd stops), stopped once its daemon is.
    let lifecycle = Lifecycle()
    /// Requests on this port between their request line and their completion: closing the
    /// port waits for them (a daemon must not stop with a request suspended).
    let inFlight = InFlight()

    init(server: HTTPServer, id: String) {
        self.server = server
        self.id = id
        header = HTTPHeader("X-Mock-Session", id)
    }
}
