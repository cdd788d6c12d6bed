#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Logging
import MockdCore
import MockdLock
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

/// Session ports: `POST /__mockd/sessions` opens one (a libmicrohttpd daemon on the main
/// listener's host), `DELETE /__mockd/sessions/ID` closes it. The core decides the calls and
/// names them as effects (`AdminStep`); the admin executor calls these, off the server's threads.
extension HTTPServer {
    /// A session's entry: reserved while its daemon starts (outside the lock), then open.
    enum SessionSlot: Sendable {
        case opening
        case open(port: SessionPort, daemon: Daemon)

        var port: SessionPort? { if case .open(let port, _) = self { port } else { nil } }
        var daemon: Daemon? { if case .open(_, let daemon) = self { daemon } else { nil } }
    }

    /// Opens a port for `id` (nil: an id is made up). The id is reserved under the lock and the
    /// host resolved and the daemon started outside it, so nothing that takes the lock waits on
    /// a name lookup, a bind or a thread start.
    func openSessionPort(id: String?) -> Result<SessionPort, SessionRefusal> {
        let host: ListenAddress
        do {
            guard let first = try ListenAddress.resolve(host: configuration.host, port: 0).first else {
                return .failure(SessionRefusal(status: 503, "no address to listen on for \(configuration.host)"))
            }
            host = first
        } catch {
            return .failure(SessionRefusal(status: 503, "\(error)"))
        }
        let reserved = sessions.withLock { sessions -> Result<(id: String, used: Set<Int>), SessionRefusal> in
            let id = id ?? nextSessionID(sessions)
            if sessions[id] != nil {
                return .failure(
                    SessionRefusal(
                        status: 409, "session \(JSONText.quoted(id)) exists; DELETE /__mockd/sessions/\(id) first, or choose another id"))
            }
            guard sessions.count < configuration.maxSessions else {
                return .failure(
                    SessionRefusal(
                        status: 503,
                        "\(sessions.count) sessions are open, the limit (--max-sessions \(configuration.maxSessions)); close one with DELETE /__mockd/sessions/ID"
                    ))
            }
            sessions[id] = .opening
            return .success((id, Set(sessions.values.compactMap { $0.port?.port })))
        }
        let id: String, used: Set<Int>
        switch reserved {
        case .success(let reservation): (id, used) = reservation
        case .failure(let refusal): return .failure(refusal)
        }
        let listener = SessionListener(server: self, id: id)
        let candidates = configuration.sessionPorts.map { range in range.filter { !used.contains($0) } } ?? [0]
        for port in candidates {
            guard let daemon = Daemon(on: host.with(port: port), configuration: configuration, server: self, sessionPort: listener)
            else { continue }
            let open = SessionPort(id: id, port: daemon.boundPort, baseURL: "http://\(host.hostText):\(daemon.boundPort)")
            // Shutdown empties the table: a daemon started meanwhile stops here, when released.
            let kept = sessions.withLock { sessions -> Bool in
                guard sessions[id] != nil else { return false }
                sessions[id] = .open(port: open, daemon: daemon)
                listener.lifecycle.move(from: .starting, to: .running)
                return true
            }
            guard kept else { return .failure(SessionRefusal(status: 503, "mockd is stopping")) }
            logger.info("session port opened", metadata: ["mockd.session": "\(id)", "mockd.url": "\(open.baseURL)"])
            return .success(open)
        }
        let reason = errno
        sessions.withLock { _ = $0.removeValue(forKey: id) }
        if let range = configuration.sessionPorts {
            return .failure(SessionRefusal(status: 503, "no free port in --session-ports \(range.lowerBound)-\(range.upperBound)"))
        }
        return .failure(SessionRefusal(status: 503, "cannot listen on \(host.hostText): \(String(cString: strerror(reason)))"))
    }

    /// Closes the port once its requests are done (see `retire`); false when there is no such
    /// session open. Blocks: the admin executor runs it.
    func closeSessionPort(id: String) -> Bool {
        let slot = sessions.withLock { sessions -> SessionSlot? in
            guard case .open = sessions[id] else { return nil }
            return sessions.removeValue(forKey: id)
        }
        guard let port = slot?.port, let daemon = slot?.daemon else { return false }
        retire(daemon)
        logger.info("session port closed", metadata: ["mockd.session": "\(id)", "mockd.url": "\(port.baseURL)"])
        return true
    }

    /// The open session ports, by id.
    var sessionPorts: [SessionPort] {
        sessions.withLock { $0.values.compactMap(\.port) }.sorted { $0.id < $1.id }
    }

    /// Stops a session's daemon once nothing of it is suspended: it stops taking connections,
    /// its parked requests are answered now (as at shutdown), and those in flight finish
    /// (10 s at most). Blocks: the admin API runs it off the server's threads.
    func retire(_ daemon: Daemon) {
        guard let listener = daemon.sessionPort else { return }
        // Draining first: from here the parking lot suspends nothing of this port (a delayed
        // request a keep-alive connection still brings is answered at once), so the sweep
        // below leaves nothing of it suspended.
        guard listener.lifecycle.move(from: .running, to: .draining) else { return }
        daemon.quiesce()
        parking.resume { $0.sessionPort === listener }
        // Woken by the port's last request's completion, or at the deadline.
        _ = listener.inFlight.waitForNone(until: .now + .seconds(10))
        withExtendedLifetime(daemon) {}  // stopped here, when the last reference goes
        listener.lifecycle.move(from: .draining, to: .stopped)
    }

    /// `s1`, `s2`…: the first not taken.
    private func nextSessionID(_ sessions: [String: SessionSlot]) -> String {
        var number = sessions.count + 1
        while sessions["s\(number)"] != nil { number += 1 }
        return "s\(number)"
    }
}
