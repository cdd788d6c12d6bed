#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CMicroHTTPD
import Dispatch
import MockdCore
import MockdLock
import MockdSystem
import Synchronization
import Logging

/// Carrying out the core's decision: `execute` sends what can be sent now and parks the rest
/// (a delay, a timeout fault, an upstream call, slow admin work) until a timer or the work
/// resumes it, when the handler executes what was left.
extension HTTPServer {
    /// `serving` is nil only for refusals, which never send a prepared response. `admin`: the
    /// admin API answers (its answers never carry `--cors` headers), also once resumed.
    func execute(
        _ execution: consuming Execution, for request: MockRequest, serving: ServingState?, admin: Bool = false,
        connection: OpaquePointer, state: RequestState
    ) -> MHD_Result {
        // Consumed, never copied: a copy of a resolution retains everything it holds (callgrind:
        // a copy here cost ~300 instructions a request).
        switch consume execution {
        case .resolved(let resolution):
            return carryOut(resolution, for: request, serving: serving, admin: admin, connection: connection, state: state)
        case .refuse(let status, let reason):
            state.phase = .answered
            log.record(request, status: status, origin: .refusal(reason), scenario: "", state: state)
            let body = ErrorAnswer.unreadable(status: status, reason: reason).response(origin: .refusal(""), layout: .compact)
            return queue(MHDResponse(built: body, extraHeaders: extraHeaders(admin)), status: status, on: connection)
        case .close(let reason):
            state.phase = .answered
            log.record(request, status: 0, origin: .closed(reason), scenario: "", state: state)
            return .NO
        }
    }

    /// The core's decision: sent now, or parked until its time (a delay, a timeout fault, an
    /// upstream call, slow admin work).
    func carryOut(
        _ resolution: consuming Resolution, for request: MockRequest, serving: ServingState?, admin: Bool = false,
        connection: OpaquePointer, state: RequestState
    ) -> MHD_Result {
        switch consume resolution {
        case .respond(let reply):
            return send(reply, for: request, serving: serving, admin: admin, connection: connection, state: state)
        case .respondAfter(let delay, let reply):
            return park(connection, state: state, request: request, serving: serving, .timer(delay), then: .respond(reply))
        case .fault(.timeout, _, _):
            // No answer: held until the stall limit, so a client that never gives up cannot pin a slot forever.
            return park(
                connection, state: state, request: request, serving: serving, .timer(configuration.stallLimit),
                then: .close(reason: "closed: timeout fault"))
        case .fault(let fault, let reply, let delay) where delay > .zero:
            return park(
                connection, state: state, request: request, serving: serving, .timer(delay),
                then: .resolved(.fault(fault, reply, after: .zero)))
        case .fault(.reset, let reply, _):
            state.phase = .answered
            if reply.warning != nil { warn(reply, request) }
            log.record(
                request, status: 0, origin: reply.origin, label: reply.source + " (fault reset)", scenario: reply.scenario, state: state)
            Self.resetOnClose(connection)
            return .NO
        case .fault(.truncated, let reply, _):
            state.phase = .answered
            if reply.warning != nil { warn(reply, request) }
            log.record(
                request, status: reply.status, origin: reply.origin, label: reply.source + " (fault truncated)", scenario: reply.scenario,
                state: state,
                response: reply.builtResponse)
            return queue(
                MHDResponse(truncating: reply, extraHeaders: extraHeaders(admin)), status: reply.status, on: connection)
        case .forward(let scenario, let delay, let warning):
            guard let missHandler else { return .NO }  // the policy forwards only when there is one
            return park(
                connection, state: state, request: request, serving: serving,
                .work { [self] in
                    // The answer comes on the miss handler's thread (the proxy's libcurl thread,
                    // or its recorder's queue); nothing of the server waits for it.
                    missHandler.answer(request) { [self] response in
                        var response = response
                        // `--contract`: an upstream answer off the contract is marked, not changed.
                        let offContract = serving?.resolver.upstreamWarning(for: request, answer: response)
                        if offContract != nil { response.origin = response.origin.noting("(off contract)") }
                        let reply = [warning, offContract].compactMap { $0 }.reduce(Reply(.built(response), scenario: scenario)) {
                            $0.warned($1)
                        }
                        // --delay: the upstream's time plus the delay, like every mocked answer (on the
                        // lot's timer queue: no thread or task waits).
                        parking.after(delay) { [self] in finishWork(state, .respond(reply)) }
                    }
                })
        case .admin(let call):
            return executeAdmin(call, for: request, serving: serving, connection: connection, state: state)
        case .upgrade(let upgrade):
            return self.upgrade(upgrade, for: request, connection: connection, state: state)
        case .relay(let relay):
            return self.relay(relay, for: request, serving: serving, connection: connection, state: state)
        case .thenPush(let answer, let order):
            // Scheduled before the answer is sent, on the admin queue's timer, no thread held:
            // its wait includes the answer's own, so the push follows the answer.
            sendLater(order, after: answer.waitBeforeAnswer)
            return carryOut(answer, for: request, serving: serving, admin: admin, connection: connection, state: state)
        }
    }

    /// Suspends the connection until `wait` is over (see `ParkingLot`), then carries out `then`.
    /// Work replaces `then` when it is done (`finishWork`): only a resume at the shutdown
    /// deadline finds work's `then` unchanged, and closes. When it cannot be parked: 503 past
    /// `--max-parked`; while draining (mockd stopping, or the request's session port closing),
    /// a delay is cut short, a stall is closed, and work (an upstream call) is refused.
    func park(
        _ connection: OpaquePointer, state: RequestState, request: MockRequest, serving: ServingState?, admin: Bool = false,
        _ wait: ParkingLot.Wait, then: Execution = .close(reason: "closed: stopping")
    ) -> MHD_Result {
        // Parked requests were resolved, so they have a serving state.
        guard let serving else { return .NO }
        state.pending.withLock { $0 = RequestState.Pending(execution: then, request: request, serving: serving, admin: admin) }
        switch parking.park(state, connection: connection, wait) {
        case .parked:
            return .YES
        case .full:
            let response = ErrorAnswer.tooManyParked(limit: configuration.maxParked)
                .response(origin: .refusal("too many parked requests"), layout: .compact)
            return send(
                Reply(.built(response), scenario: ""), for: request, serving: serving, admin: admin, connection: connection, state: state)
        case .closed:
            let now: Execution
            switch wait {
            case .timer: now = then
            case .work: now = Self.stopping
            }
            // Never parked again: what a timer leaves is due now, and work's stand-in closes.
            return execute(now, for: request, serving: serving, admin: admin, connection: connection, state: state)
        }
    }

    /// What work (an upstream call, a reload) that cannot run or finish answers while mockd stops.
    static var stopping: Execution {
        .respond(Reply(.built(ErrorAnswer.stopping.response(origin: .refusal("stopping"), layout: .compact)), scenario: ""))
    }

    /// Hands a parked request what to send, and resumes it.
    func finishWork(_ state: RequestState, _ execution: Execution) {
        state.pending.withLock { pending in pending?.execution = execution }
        parking.resume(state)
    }

    /// Sends an answer that is due now; logs the request first.
    private func send(
        _ reply: Reply, for request: MockRequest, serving: ServingState?, admin: Bool, connection: OpaquePointer, state: RequestState
    ) -> MHD_Result {
        state.phase = .answered
        if reply.warning != nil { warn(reply, request) }
        // Draining (mockd stopping, or this session's port closing): every answer closes its
        // connection, so the drain ends with the requests in flight.
        if lifecycle.isEnding || state.sessionPort?.lifecycle.isEnding == true {
            log.record(
                request, status: reply.status, origin: reply.origin, label: reply.source, scenario: reply.scenario, state: state,
                response: reply.builtResponse)
            return queue(MHDResponse(closing: reply, extraHeaders: extraHeaders(admin)), status: reply.status, on: connection)
        }
        // One switch for what is logged and what is sent (the reply's accessors are calls into the core).
        switch reply.response {
        case .prepared(let prepared):
            log.record(
                request, status: prepared.status, origin: prepared.origin, label: prepared.source, scenario: reply.scenario, state: state)
            guard let serving, let response = serving.response(for: prepared) else { return .NO }
            return MHD_queue_response(connection, UInt32(prepared.status), response)
        case .streamed(let streamed):
            // Logged when the stream ends (how many pieces went, how it ended).
            return queueStream(
                streamed.stream, built: streamed.head, scenario: reply.scenario, extraHeaders: extraHeaders(admin), for: request,
                connection: connection, state: state)
        case .built(let built):
            // The label is made from the origin once, for the access line and the header.
            let label = built.source
            log.record(
                request, status: built.status, origin: built.origin, label: label, scenario: reply.scenario, state: state,
                response: built)
            if let id = built.reuseID, let serving {
                return queue(
                    serving.reusedResponse(id, { MHDResponse(built: built, source: label, extraHeaders: extraHeaders(admin)) }),
                    status: built.status, on: connection)
            }
            return queue(
                MHDResponse(built: built, source: label, extraHeaders: extraHeaders(admin)), status: built.status, on: connection)
        }
    }

    /// `--cors` headers, which the admin API's answers never carry.
    private func extraHeaders(_ admin: Bool) -> [HTTPHeader] { admin ? [] : configuration.corsHeaders }

    /// An unknown X-Mock-Scenario: answered with the defaults, said in the header and in the log.
    private func warn(_ reply: Reply, _ request: MockRequest) {
        logger.info(
            "answered with a warning (X-Mockd-Warning)",
            metadata: ["mockd.method": "\(request.method)", "mockd.path": "\(request.path)", "mockd.warning": "\(reply.warning ?? "")"])
    }

    private func queue(_ response: MHDResponse?, status: Int, on connection: OpaquePointer) -> MHD_Result {
        guard let response else { return .NO }
        // libmicrohttpd takes its own reference while queueing; ours must last until then.
        return withExtendedLifetime(response) { MHD_queue_response(connection, UInt32(status), response.raw) }
    }

    /// FIN now, for a stream cut short (see `StreamedAnswer`).
    static func shutDownSending(_ connection: OpaquePointer) {
        ConnectionSocket.shutDownSending(cmhd_connection_fd(connection))
    }

    /// A reset: closing the connection sends RST (see `ConnectionSocket.resetOnClose`).
    static func resetOnClose(_ connection: OpaquePointer) {
        ConnectionSocket.resetOnClose(cmhd_connection_fd(connection))
    }
}
