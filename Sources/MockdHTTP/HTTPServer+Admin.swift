import CMicroHTTPD
import Dispatch
import Logging
import MockdCore
import MockdLock
import Synchronization

/// Carrying out an admin call the core decided (`AdminCall`): at once, or as a long poll that
/// waits for news; and the effects its steps name (`AdminStep`), which one executor carries out.
/// The core has already run the access check; the adapter only hands it the facts of the moment.
extension HTTPServer {
    func executeAdmin(
        _ call: AdminCall, for request: MockRequest, serving: ServingState?,
        connection: OpaquePointer, state: RequestState
    ) -> MHD_Result {
        guard let serving else { return .NO }
        switch call.work {
        case .now:
            let step = call.answer(adminContext(serving))
            if let response = step.answer {
                let result = execute(
                    .respond(Reply(.built(response), scenario: "")), for: request, serving: serving, admin: true,
                    connection: connection, state: state)
                if call.changesState { news.announce() }  // a scenario set or a reset: dashboards show it
                return result
            }
            return park(
                connection, state: state, request: request, serving: serving, admin: true,
                .work { [self] in
                    resume(state, after: step) { [self] in if call.changesState { news.announce() } }
                })
        case .waitForNews(let after, let stateCount, let wait):
            // Answered at the feed's next delivery, news or not (see `NewsFeed`).
            return park(
                connection, state: state, request: request, serving: serving, admin: true,
                .work { [self, journal, runtime] in
                    news.wait(
                        question: "\(after) \(stateCount.map(String.init) ?? "-")", timeout: wait,
                        hasNews: { AdminAPI.hasNews(after: after, state: stateCount, journal: journal, runtime: runtime) },
                        // The snapshot as it is now: a reload meanwhile is what the dashboard should see.
                        answer: { [self] in call.answer(adminContext(current.withLock { $0 })) },
                        deliver: { [self] step in resume(state, after: step) })
                })
        case .waitForRequests(let filter, let count, let wait):
            // Answered within a few ms of the request that completes the count (see `requestWaits`).
            return park(
                connection, state: state, request: request, serving: serving, admin: true,
                .work { [self, journal] in
                    // Waiters asking the same (filter and count) share one answer.
                    requestWaits.wait(
                        question: "\(filter) \(count)", timeout: wait,
                        hasNews: { AdminAPI.hasRequests(filter, count: count, journal: journal) },
                        answer: { [self] in call.answer(adminContext(current.withLock { $0 })) },
                        deliver: { [self] step in resume(state, after: step) })
                })
        }
    }

    /// The one executor of the effects admin answers name: each is carried out on `effectors.queue`,
    /// never on a libmicrohttpd thread (reading 10,000 files takes a few hundred ms, closing a
    /// session port waits for its requests in flight) and never under a lock requests take; the
    /// step its result gives is carried out next, until one is the answer, given to `deliver`.
    /// An answer with no effect is delivered at once, on the caller's thread.
    func carryOut(_ step: AdminStep, deliver: @escaping @Sendable (BuiltResponse) -> Void) {
        if let response = step.answer { return deliver(response) }
        effectors.queue.async { [self] in
            var next = step
            while true {
                switch next {
                case .answer(let response):
                    return deliver(response)
                case .reload(let trigger, let then):
                    next = then(effectors.reloads?.reload(trigger: trigger) ?? .unavailable(trigger: trigger))
                case .writeMockFile(let relativePath, let bytes, let then):
                    let written = effectors.mockWriter?.writeNewFile(relativePath: relativePath, bytes: bytes)
                    next = then(written ?? .failed("this server cannot write files"))
                case .writeRouteTable(let path, let bytes, let then):
                    next = then(effectors.mockWriter?.writeNewFile(path: path, bytes: bytes) ?? .failed("this server cannot write files"))
                case .openSessionPort(let id, let then):
                    next = then(openSessionPort(id: id))
                case .closeSessionPort(let id, let then):
                    next = then(closeSessionPort(id: id))
                case .readFiles(let then):
                    next = then(effectors.files)
                case .webSockets(let command, let then):
                    next = then(webSocketReport(command))
                case .push(let order, let then):
                    next = then(sendOrSchedule(order))
                case .logWarning(let message, let then):
                    logger.warning("\(message)")
                    next = then()
                }
            }
        }
    }

    /// Carries out `step` (see `carryOut`) and resumes the parked request with its answer;
    /// `then` runs after.
    private func resume(_ state: RequestState, after step: AdminStep, then: @escaping @Sendable () -> Void = {}) {
        carryOut(step) { [self] response in
            finishWork(state, .respond(Reply(.built(response), scenario: "")))
            then()
        }
    }

    /// What an admin answer reads: the snapshot served, the runtime state, the journal, and the
    /// server's facts (uptime, the last reload, whether it writes mocks and may, its session ports).
    func adminContext(_ serving: ServingState) -> AdminAPI.Context {
        AdminAPI.Context(
            snapshot: serving.snapshot, state: runtime, journal: journal,
            uptimeSeconds: Double(RequestState.monotonicNanoseconds() - startedAt) / 1e9,
            lastReload: effectors.reloads?.lastReload, writesMocks: effectors.mockWriter != nil, writeRefusal: writeRefusal,
            sessionPorts: sessions.ports, pushRefusal: effectors.pusher == nil ? Self.noPusher : nil,
            pushBundleID: configuration.pushBundleID,
            openWebSockets: { [self] in
                guard case .connections(let open) = webSocketReport(.list(session: nil)) else { return [] }
                return open
            })
    }

    /// Why `POST /__mockd/mocks` may not write here, or nil: anyone who reaches a server listening
    /// beyond loopback could otherwise write files on this machine.
    var writeRefusal: String? {
        guard !configuration.isLoopbackOnly, configuration.adminToken == nil else { return nil }
        return "creating mocks writes files on this machine, and mockd listens on \(configuration.host) without --admin-token: "
            + "start it with --admin-token (or MOCKD_ADMIN_TOKEN) and send Authorization: Bearer <token>"
    }
}
