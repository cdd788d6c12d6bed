import MockdCore

/// The server's life: `start` binds its daemons (starting → running), `shutdown` drains and
/// stops them (running → draining → stopped). Where it is, `lifecycle` says; nothing else does.
extension HTTPServer {
    /// Where the server is in its life.
    package var state: Lifecycle.State { lifecycle.state }
    /// The port actually bound (useful with port 0).
    package var port: Int { mainPort.port }
    /// `http://127.0.0.1:PORT`, one per listen address.
    package var urls: [String] { mainPort.urls }

    /// Binds and starts serving. Throws with the address and the reason when it cannot; the
    /// server is then stopped, as one that never ran.
    package func start() throws(ServerError) {
        do {
            try mainPort.start(configuration, for: self)
        } catch {
            lifecycle.move(from: .starting, to: .stopped)
            throw error
        }
        connections.start()
        lifecycle.move(from: .starting, to: .running)
    }

    /// Stops accepting, lets requests in flight finish (up to `timeout`), then stops. From here
    /// on every answer closes its connection, so keep-alive clients cannot hold the drain open.
    /// Blocks the calling thread: call it from a thread of its own, not the cooperative pool.
    /// Only the first call drains; a later one (or one before `start`) returns at once.
    package func shutdown(timeout: Duration = .seconds(10)) {
        guard lifecycle.move(from: .running, to: .draining) else {
            lifecycle.move(from: .starting, to: .stopped)
            return
        }
        var stopping = mainPort.takeDaemons() + sessions.takeAll()
        // Session ports drain with the server: their streams send the rest, their answers close.
        let listeners = stopping.compactMap(\.sessionPort)
        for listener in listeners { listener.lifecycle.move(from: .running, to: .draining) }
        connections.stop()
        #if !MOCKD_NO_WEBSOCKET
            // WebSocket clients are told (1001) and given a second to answer the close.
            webSockets.closeAll(code: 1001, reason: "mockd is stopping", timeout: min(timeout, .seconds(1)))
        #endif
        // The daemons must outlive the drain: each one stops when released (`Daemon.deinit`),
        // and stopping one with a connection suspended aborts the process.
        withExtendedLifetime(stopping) {
            for daemon in stopping { daemon.quiesce() }
            // Delays are cut short (the answer goes out now), stalled requests are closed, and
            // upstream calls are cancelled; none may stay suspended when the daemon stops.
            missHandler?.shutdown()
            // From here on nothing is parked; what is parked now is resumed. Work (a reload, an
            // upstream call cancelled above whose answer is still on its way) is answered
            // "stopping" now rather than waited for: it ends on a thread or queue of its own,
            // which a busy machine may not get to before the deadline. The work's own answer,
            // if it still comes, finds the request answered.
            for request in parking.close() {
                if request.kind == .timer {
                    parking.resume(request.state)
                } else {
                    finishWork(request.state, Self.stopping)
                }
            }
            // Dashboards' and tests' long polls are answered now, not at their timeout.
            news.flush()
            requestWaits.flush()
            // Woken by the last request's completion, or at the deadline.
            _ = inFlight.waitForNone(until: .now + timeout)
            // Whatever is still suspended (work past the deadline) is resumed before the daemons stop.
            parking.resumeAll()
        }
        stopping.removeAll()  // the daemons stop here
        for listener in listeners { listener.lifecycle.move(from: .draining, to: .stopped) }
        lifecycle.move(from: .draining, to: .stopped)
    }
}
