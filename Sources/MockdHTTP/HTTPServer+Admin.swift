import CMicroHTTPD
import Dispatch
import MockdCore
import MockdLock
import Synchronization

/// Carrying out an admin call the core decided (`AdminCall`): at once, off the server's threads
/// (a reload), or as a long poll that waits for news. The core has already run the access check;
/// the adapter only hands it the facts of the moment.
extension HTTPServer {
    func executeAdmin(
        _ call: AdminCall, for request: MockRequest, serving: ServingState?,
        connection: OpaquePointer, state: RequestState
    ) -> MHD_Result {
        guard let serving else { return .NO }
        switch call.work {
        case .now:
            let result = execute(
                .respond(Reply(.built(call.answer(adminContext(serving))), scenario: "")), for: request, serving: serving,
                admin: true, connection: connection, state: state)
            if call.changesState { news.announce() }  // a scenario set or a reset: dashboards show it
            return result
        case .offThread:
            // Reading 10,000 files takes a few hundred ms: not on a libmicrohttpd thread, whose
            // other connections would wait.
            return park(
                connection, state: state, request: request, serving: serving, admin: true,
                .work { [self] in
                    DispatchQueue.global().async { [self] in
                        finishWork(state, .respond(Reply(.built(call.answer(adminContext(serving))), scenario: "")))
                    }
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
                        deliver: { [self] response in finishWork(state, .respond(Reply(.built(response), scenario: ""))) })
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
                        deliver: { [self] response in finishWork(state, .respond(Reply(.built(response), scenario: ""))) })
                })
        }
    }

    /// What an admin answer reads: the snapshot served, the runtime state, the journal, and the
    /// server's facts (uptime, who reloads, who writes mocks and whether it may).
    func adminContext(_ serving: ServingState) -> AdminAPI.Context {
        AdminAPI.Context(
            snapshot: serving.snapshot, state: runtime, journal: journal,
            uptimeSeconds: Double(RequestState.monotonicNanoseconds() - startedAt) / 1e9,
            reloads: reloads, writer: mockWriter, writeRefusal: writeRefusal, sessions: self)
    }

    /// Why `POST /__mockd/mocks` may not write here, or nil: anyone who reaches a server listening
    /// beyond loopback could otherwise write files on this machine.
    var writeRefusal: String? {
        guard !configuration.isLoopbackOnly, configuration.adminToken == nil else { return nil }
        return "creating mocks writes files on this machine, and mockd listens on \(configuration.host) without --admin-token: "
            + "start it with --admin-token (or MOCKD_ADMIN_TOKEN) and send Authorization: Bearer <token>"
    }
}
