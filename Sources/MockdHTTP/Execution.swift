#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMicroHTTPD
import Dispatch
import MockdCore

/// What the adapter does to finish a request, once it is decided.
enum Outcome: Sendable {
    /// Send `reply`; with a fault, break the connection that way (`reset`, `truncated`).
    case send(Reply, fault: Fault?)
    /// The request cannot be read (framing, limits): a JSON reason and `Connection: close`.
    case refuse(status: Int, reason: String)
    /// Close without an answer (a timeout fault ran out); `reason` is what the log says.
    case close(reason: String)
}

/// Carries out the core's decision. `execute` maps each kind of `Resolution` to sending now or
/// parking; `carryOut` is the one place that sends (and logs what it sent).
extension HTTPServer {
    func execute(_ resolution: Resolution, for request: MockRequest, serving: ServingState,
                 connection: OpaquePointer, state: RequestState) -> MHD_Result {
        switch resolution {
        case .respond(let reply):
            return carryOut(.send(reply, fault: nil), for: request, serving: serving, connection: connection, state: state)
        case .respondAfter(let delay, let reply):
            return park(connection, state: state, request: request, serving: serving, .timer(delay, then: .send(reply, fault: nil)))
        case .fault(.timeout, _, _):
            // No answer: held until the stall limit, so a client that never gives up cannot pin a slot forever.
            return park(connection, state: state, request: request, serving: serving,
                        .timer(configuration.stallLimit, then: .close(reason: "closed: timeout fault")))
        case .fault(let fault, let reply, let delay):
            guard delay > .zero else {
                return carryOut(.send(reply, fault: fault), for: request, serving: serving, connection: connection, state: state)
            }
            return park(connection, state: state, request: request, serving: serving, .timer(delay, then: .send(reply, fault: fault)))
        case .forward(let scenario, let delay, let warning):
            guard let missHandler else { return .NO }  // the policy forwards only when there is one
            return park(connection, state: state, request: request, serving: serving, .work { [self] in
                Task {
                    let response = await missHandler.answer(request)
                    let relayed = Reply(.built(response), scenario: scenario)
                    let reply = warning.map { relayed.warned($0) } ?? relayed
                    // --delay: the upstream's time plus the delay, like every mocked answer (on the
                    // lot's timer queue: no thread or task waits).
                    parking.after(delay) { [self] in finishWork(state, .send(reply, fault: nil)) }
                }
            })
        case .admin(.offThread):
            // Reading 10,000 files takes a few hundred ms: not on a libmicrohttpd thread, whose
            // other connections would wait.
            return park(connection, state: state, request: request, serving: serving, .work { [self] in
                DispatchQueue.global().async { [self] in
                    finishWork(state, .send(Reply(.built(adminResponse(request, serving: serving)), scenario: ""), fault: nil))
                }
            })
        case .admin(.waitForNews(let after, let stateCount, let wait)):
            // Refused callers (Host, token) are answered at once; every other waits for the
            // feed's next delivery, news or not (see `NewsFeed`).
            guard adminRefusal(request) == nil, wait > .zero else {
                return answerAdmin(request, serving: serving, connection: connection, state: state)
            }
            return park(connection, state: state, request: request, serving: serving, .work { [self, journal, runtime] in
                news.wait(question: "\(after) \(stateCount.map(String.init) ?? "-")", timeout: wait,
                          hasNews: { AdminAPI.hasNews(after: after, state: stateCount, journal: journal, runtime: runtime) },
                          // The snapshot as it is now: a reload meanwhile is what the dashboard should see.
                          answer: { [self] in adminResponse(request, serving: current.withLock { $0 }) },
                          deliver: { [self] response in finishWork(state, .send(Reply(.built(response), scenario: ""), fault: nil)) })
            })
        case .admin(.now):
            return answerAdmin(request, serving: serving, connection: connection, state: state)
        }
    }

    private func answerAdmin(_ request: MockRequest, serving: ServingState, connection: OpaquePointer, state: RequestState) -> MHD_Result {
        let reply = Reply(.built(adminResponse(request, serving: serving)), scenario: "")
        let result = carryOut(.send(reply, fault: nil), for: request, serving: serving, connection: connection, state: state)
        // A scenario set or a reset: dashboards show it.
        if request.method != "GET", request.method != "HEAD" { news.announce() }
        return result
    }

    /// Suspends the connection until `wait` is over (see `ParkingLot`). When it cannot be
    /// parked: 503 past `--max-parked`; while stopping, a delay is cut short, a stall is
    /// closed, and work (an upstream call) is refused.
    func park(_ connection: OpaquePointer, state: RequestState, request: MockRequest, serving: ServingState, _ wait: ParkingLot.Wait) -> MHD_Result {
        // What to do when resumed: a timer's outcome is known now; work replaces this one when done
        // (only a resume at the shutdown deadline finds it unchanged).
        let then: Outcome
        if case .timer(_, let outcome) = wait { then = outcome } else { then = .close(reason: "closed: stopping") }
        state.pending.withLock { $0 = RequestState.Pending(outcome: then, request: request, serving: serving) }
        switch parking.park(state, connection: connection, wait) {
        case .parked:
            return .YES
        case .full:
            let response = BuiltResponse.json(status: 503, #"{"error":"too many parked requests (--max-parked \#(configuration.maxParked)): delays, timeout faults and upstream calls wait in parallel up to that limit"}"# + "\n", source: "refused: too many parked requests")
            return carryOut(.send(Reply(.built(response), scenario: ""), fault: nil), for: request, serving: serving, connection: connection, state: state)
        case .closed:
            let outcome: Outcome
            switch wait {
            case .timer(_, .close):
                outcome = .close(reason: "closed: stopping")
            case .timer(_, let then):
                outcome = then
            case .work:
                var response = BuiltResponse.json(status: 503, #"{"error":"mockd is stopping"}"# + "\n", source: "refused: stopping")
                response.headers.append(HTTPHeader("Connection", "close"))
                outcome = .send(Reply(.built(response), scenario: ""), fault: nil)
            }
            return carryOut(outcome, for: request, serving: serving, connection: connection, state: state)
        }
    }

    /// Hands a parked request what to send, and resumes it.
    func finishWork(_ state: RequestState, _ outcome: Outcome) {
        state.pending.withLock { pending in pending?.outcome = outcome }
        parking.resume(state)
    }

    /// The one place that sends: logs the request, then queues its answer (or breaks the
    /// connection). `serving` is nil only for refusals, which never send a prepared response.
    func carryOut(_ outcome: Outcome, for request: MockRequest, serving: ServingState?, connection: OpaquePointer, state: RequestState) -> MHD_Result {
        state.phase = .answered
        // Stopping: every answer closes its connection, so the drain ends with the requests in flight.
        let closing = parking.isClosed
        if case .send(let reply, _) = outcome, let warning = reply.warning {
            // An unknown X-Mock-Scenario: answered with the defaults, said in the header and here.
            logger.warning("\(warning)", metadata: ["method": "\(request.method)", "path": "\(request.path)"])
        }
        switch outcome {
        case .close(let reason):
            log.record(request, status: 0, source: reason, scenario: "", state: state)
            return .NO
        case .refuse(let status, let reason):
            log.record(request, status: status, source: "refused: \(reason)", scenario: "", state: state)
            var body = BuiltResponse.json(status: status, #"{"error":\#(JSONText.quoted(reason))}"# + "\n", source: "refused")
            body.headers.append(HTTPHeader("Connection", "close"))
            return queue(MHDResponse(built: body, extraHeaders: configuration.corsHeaders), status: status, on: connection)
        case .send(let reply, .reset?):
            log.record(request, status: 0, source: reply.source + " (fault reset)", scenario: reply.scenario, state: state)
            Self.resetOnClose(connection)
            return .NO
        case .send(let reply, .truncated?):
            log.record(request, status: reply.status, source: reply.source + " (fault truncated)", scenario: reply.scenario, state: state,
                       response: reply.builtResponse)
            return queue(MHDResponse(truncating: reply, extraHeaders: extraHeaders(for: reply)), status: reply.status, on: connection)
        case .send(let reply, _):  // no fault (a timeout fault never gets here: it is parked, then closed)
            log.record(request, status: reply.status, source: reply.source, scenario: reply.scenario, state: state, response: reply.builtResponse)
            if closing {
                return queue(MHDResponse(closing: reply, extraHeaders: extraHeaders(for: reply)), status: reply.status, on: connection)
            }
            switch reply.response {
            case .prepared(let prepared):
                guard let serving, let response = serving.response(for: prepared) else { return .NO }
                return MHD_queue_response(connection, UInt32(prepared.status), response)
            case .built(let built):
                // No --cors on the admin API's answers.
                if let id = built.reuseID, let serving {
                    return queue(serving.reusedResponse(id, { MHDResponse(built: built, extraHeaders: extraHeaders(for: built)) }),
                                 status: built.status, on: connection)
                }
                return queue(MHDResponse(built: built, extraHeaders: extraHeaders(for: built)), status: built.status, on: connection)
            }
        }
    }

    private func queue(_ response: MHDResponse?, status: Int, on connection: OpaquePointer) -> MHD_Result {
        guard let response else { return .NO }
        // libmicrohttpd takes its own reference while queueing; ours must last until then.
        return withExtendedLifetime(response) { MHD_queue_response(connection, UInt32(status), response.raw) }
    }

    /// With TURBO mode libmicrohttpd skips its orderly shutdown, so a zero linger turns the
    /// close into a reset (RST), which is what a dropped connection looks like to a client.
    static func resetOnClose(_ connection: OpaquePointer) {
        let fd = cmhd_connection_fd(connection)
        guard fd >= 0 else { return }
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// The admin API's answer, after the Host check (DNS rebinding) and the token check.
    func adminResponse(_ request: MockRequest, serving: ServingState) -> BuiltResponse {
        if let refusal = adminRefusal(request) { return refusal }
        let uptime = Double(RequestState.monotonicNanoseconds() - startedAt) / 1e9
        let reloads = self.reloads
        let context = AdminAPI.Context(snapshot: serving.snapshot, state: runtime, journal: journal, uptimeSeconds: uptime,
                                       reload: { reloads?.reload(trigger: "admin") ?? Self.cannotReload() },
                                       lastReload: reloads?.lastReload, writer: mockWriter, writeRefusal: writeRefusal)
        return admin.handle(request, context: context)
    }

    /// The Host check (DNS rebinding), then the token check (the dashboard's page and files need
    /// no token: they hold no data, and a browser cannot send one when it opens a page).
    func adminRefusal(_ request: MockRequest) -> BuiltResponse? {
        if let refusal = adminHostRefusal(request) { return refusal }
        if let token = configuration.adminToken, !AdminAPI.isDashboardAsset(request),
           request.headers.first(named: "Authorization") != "Bearer \(token)" {
            var response = BuiltResponse.json(status: 401, #"{"error":"the admin API needs Authorization: Bearer <token> (--admin-token)"}"# + "\n", source: "admin")
            response.headers.append(HTTPHeader("WWW-Authenticate", #"Bearer realm="mockd admin""#))
            return response
        }
        return nil
    }

    private static func cannotReload() -> ReloadReport {
        ReloadReport(time: RequestLog.now(), ok: false, files: 0, routes: 0, errors: ["reload is not available"],
                     durationMilliseconds: 0, trigger: "admin")
    }
}
