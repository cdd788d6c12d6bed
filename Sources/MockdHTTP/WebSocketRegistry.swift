// Not in the static build, which has no wslay to link (Package.swift).
#if !MOCKD_NO_WEBSOCKET
    import Dispatch
    import MockdCore
    import MockdLock
    import Synchronization

    /// The open WebSocket connections of a server, by number: what pushes, broadcasts, the
    /// connection list and shutdown reach.
    final class WebSocketRegistry: Sendable {
        private let open = Lock<[Int: WebSocketConnection]>([:])
        private let lastID = Atomic<Int>(0)
        /// Signalled as each connection ends, for a shutdown waiting on the last.
        private let endings = DispatchSemaphore(value: 0)
        /// The connections' queues run here: a few pool threads for every connection.
        let queue = DispatchQueue(label: "mockd.websockets", attributes: .concurrent)
        /// Called after a connection is added or removed: the list dashboards show changed.
        private let changed: @Sendable () -> Void

        init(changed: @escaping @Sendable () -> Void = {}) {
            self.changed = changed
        }

        func nextID() -> Int {
            lastID.add(1, ordering: .relaxed).newValue
        }

        func add(_ connection: WebSocketConnection) {
            open.withLock { $0[connection.id] = connection }
            changed()
        }

        func remove(_ connection: WebSocketConnection) {
            open.withLock { $0[connection.id] = nil }
            endings.signal()
            changed()
        }

        /// Open connections, oldest first; `session`/`path` nil: any.
        func connections(session: String?? = nil, path: String? = nil) -> [WebSocketConnection] {
            open.withLock { Array($0.values) }
                .filter { connection in
                    (session == nil || connection.session == session!) && (path == nil || connection.path == path!)
                }
                .sorted { $0.id < $1.id }
        }

        func connection(_ id: Int) -> WebSocketConnection? {
            open.withLock { $0[id] }
        }

        /// Sends `message` to every open connection of `session` on `path`; how many it went to.
        @discardableResult
        func send(_ message: WebSocketPayload, session: String?, path: String) -> Int {
            let reached = connections(session: .some(session), path: path)
            for connection in reached { connection.push(message) }
            return reached.count
        }

        /// Closes every connection (`session`: only that session's) with `code`, and waits until
        /// they have ended or `timeout` is over.
        func closeAll(code: UInt16, reason: String, session: String?? = nil, timeout: Duration) {
            let closing = connections(session: session)
            guard !closing.isEmpty else { return }
            for connection in closing { connection.close(code: code, reason: reason) }
            let deadline =
                DispatchTime.now()
                + .nanoseconds(Int(timeout.components.seconds) * 1_000_000_000 + Int(timeout.components.attoseconds / 1_000_000_000))
            // Each ending signals once; any connection's ending counts, and the list is looked at again.
            while !connections(session: session).isEmpty {
                if endings.wait(timeout: deadline) == .timedOut { return }
            }
        }
    }
#endif
