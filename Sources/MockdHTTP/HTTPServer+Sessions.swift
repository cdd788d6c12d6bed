#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Logging
import MockdCore
import MockdLock
import Synchronization

/// Session ports: `POST /__mockd/sessions` opens one (a libmicrohttpd daemon on the main
/// listener's host), `DELETE /__mockd/sessions/ID` closes it. The core decides the calls and
/// names them as effects (`AdminStep`); the admin executor calls these, off the server's threads.
extension HTTPServer {
    /// Opens a port for `id` (nil: an id is made up). The id is reserved in the table, and the
    /// host resolved and the daemon started outside its lock, so nothing that takes the lock
    /// waits on a name lookup, a bind or a thread start.
    func openSessionPort(id: String?) -> Result<SessionPort, ErrorAnswer> {
        let host: ListenAddress
        do {
            guard let first = try ListenAddress.resolve(host: configuration.host, port: 0).first else {
                return .failure(ErrorAnswer(503, "no address to listen on for \(configuration.host)"))
            }
            host = first
        } catch {
            return .failure(ErrorAnswer(503, "\(error)"))
        }
        let reserved = sessions.reserve(id, limit: configuration.maxSessions)
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
            guard sessions.open(id, open, daemon: daemon) else {
                // Shutdown emptied the table meanwhile. The daemon has been taking connections
                // since it started, so it may hold a parked request: it drains like a closing
                // session port (released with one suspended, libmicrohttpd would abort).
                retire(daemon)
                return .failure(ErrorAnswer(503, "mockd is stopping"))
            }
            logger.info("session port opened", metadata: ["mockd.session": "\(id)", "mockd.url": "\(open.baseURL)"])
            return .success(open)
        }
        let reason = errno
        sessions.cancel(id)
        if let range = configuration.sessionPorts {
            return .failure(ErrorAnswer(503, "no free port in --session-ports \(range.lowerBound)-\(range.upperBound)"))
        }
        return .failure(ErrorAnswer(503, "cannot listen on \(host.hostText): \(String(cString: strerror(reason)))"))
    }

    /// Closes the port once its requests are done (see `retire`); false when there is no such
    /// session open. Blocks: the admin executor runs it.
    func closeSessionPort(id: String) -> Bool {
        guard let (port, daemon) = sessions.close(id) else { return false }
        #if !MOCKD_NO_WEBSOCKET
            // The session ends: its WebSocket connections are told (1001) before its port stops.
            webSockets.closeAll(code: 1001, reason: "session closed", session: .some(id), timeout: .seconds(1))
        #endif
        retire(daemon)
        logger.info("session port closed", metadata: ["mockd.session": "\(id)", "mockd.url": "\(port.baseURL)"])
        return true
    }

    /// Stops a session's daemon once nothing of it is suspended: it stops taking connections,
    /// its parked requests are answered now (as at shutdown), and those in flight finish
    /// (10 s at most). Blocks: the admin API runs it off the server's threads.
    func retire(_ daemon: Daemon) {
        guard let listener = daemon.sessionPort else { return }
        // Draining first: from here the parking lot suspends nothing of this port (a delayed
        // request a keep-alive connection still brings is answered at once), so the sweep
        // below leaves nothing of it suspended.
        // From starting too: a port whose opening lost the race with shutdown.
        guard listener.lifecycle.move(from: .running, to: .draining) || listener.lifecycle.move(from: .starting, to: .draining)
        else { return }
        daemon.quiesce()
        parking.resume { $0.sessionPort === listener }
        // Woken by the port's last request's completion, or at the deadline.
        _ = listener.inFlight.waitForNone(until: .now + .seconds(10))
        withExtendedLifetime(daemon) {}  // stopped here, when the last reference goes
        listener.lifecycle.move(from: .draining, to: .stopped)
    }
}
