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
        guard case .resolved(let resolution) = execution else {
            return send(execution, for: request, serving: serving, admin: admin, connection: connection, state: state)
        }
        switch resolution {
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
        case .forward(let scenario, let delay, let warning):
            guard let missHandler else { return .NO }  // the policy forwards only when there is one
            return park(
                connection, state: state, request: request, serving: serving,
                .work { [self] in
                    // The answer comes on the miss handler's thread (the proxy's libcurl thread,
                    // or its recorder's queue); nothing of the server waits for it.
                    missHandler.answer(request) { [self] response in
                        let relayed = Reply(.built(response), scenario: scenario)
                        let reply = warning.map { relayed.warned($0) } ?? relayed
                        // --delay: the upstream's time plus the delay, like every mocked answer (on the
                        // lot's timer queue: no thread or task waits).
                        parking.after(delay) { [self] in finishWork(state, .respond(reply)) }
                    }
                })
        case .admin(let call):
            return executeAdmin(call, for: request, serving: serving, connection: connection, state: state)
        case .upgrade(let upgrade):
            return self.upgrade(upgrade, for: request, connection: connection, state: state)
        case .respond, .fault:
            return send(.resolved(resolution), for: request, serving: serving, admin: admin, connection: connection, state: state)
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
                .respond(Reply(.built(response), scenario: "")), for: request, serving: serving, admin: admin, connection: connection,
                state: state)
        case .closed:
            let now: Execution
            switch wait {
            case .timer: now = then
            case .work: now = Self.stopping
            }
            return send(now, for: request, serving: serving, admin: admin, connection: connection, state: state)
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

    /// Sends an answer that is due now, or breaks the connection; logs the request first.
    private func send(
        _ execution: consuming Execution, for request: MockRequest, serving: ServingState?, admin: Bool,
        connection: OpaquePointer, state: RequestState
    ) -> MHD_Result {
        state.phase = .answered
        // Draining (mockd stopping, or this session's port closing): every answer closes its
        // connection, so the drain ends with the requests in flight.
        let closing = lifecycle.isEnding || state.sessionPort?.lifecycle.isEnding == true
        let extraHeaders = admin ? [] : configuration.corsHeaders
        switch consume execution {
        case .close(let reason):
            log.record(request, status: 0, origin: .closed(reason), scenario: "", state: state)
            return .NO
        case .refuse(let status, let reason):
            log.record(request, status: status, origin: .refusal(reason), scenario: "", state: state)
            let body = ErrorAnswer.unreadable(status: status, reason: reason).response(origin: .refusal(""), layout: .compact)
            return queue(MHDResponse(built: body, extraHeaders: extraHeaders), status: status, on: connection)
        case .resolved(.fault(.reset, let reply, _)):
            if reply.warning != nil { warn(reply, request) }
            log.record(
                request, status: 0, origin: reply.origin, label: reply.source + " (fault reset)", scenario: reply.scenario, state: state)
            Self.resetOnClose(connection)
            return .NO
        case .resolved(.fault(.truncated, let reply, _)):
            if reply.warning != nil { warn(reply, request) }
            log.record(
                request, status: reply.status, origin: reply.origin, label: reply.source + " (fault truncated)", scenario: reply.scenario,
                state: state,
                response: reply.builtResponse)
            return queue(MHDResponse(truncating: reply, extraHeaders: extraHeaders), status: reply.status, on: connection)
        // A timeout fault never gets here: it is parked, then closed.
        case .resolved(.respond(let reply)), .resolved(.fault(_, let reply, _)):
            if reply.warning != nil { warn(reply, request) }
            if closing {
                log.record(
                    request, status: reply.status, origin: reply.origin, label: reply.source, scenario: reply.scenario, state: state,
                    response: reply.builtResponse)
                return queue(MHDResponse(closing: reply, extraHeaders: extraHeaders), status: reply.status, on: connection)
            }
            // One switch for what is logged and what is sent (the reply's accessors are calls into the core).
            switch reply.response {
            case .prepared(let prepared):
                log.record(
                    request, status: prepared.status, origin: prepared.origin, label: prepared.source, scenario: reply.scenario,
                    state: state)
                guard let serving, let response = serving.response(for: prepared) else { return .NO }
                return MHD_queue_response(connection, UInt32(prepared.status), response)
            case .streamed(let streamed):
                // Logged when the stream ends (how many pieces went, how it ended).
                return queueStream(
                    streamed.stream, built: streamed.head, scenario: reply.scenario, extraHeaders: extraHeaders, for: request,
                    connection: connection, state: state)
            case .built(let built):
                // The label is made from the origin once, for the access line and the header.
                let label = built.source
                log.record(
                    request, status: built.status, origin: built.origin, label: label, scenario: reply.scenario, state: state,
                    response: built)
                if let id = built.reuseID, let serving {
                    return queue(
                        serving.reusedResponse(id, { MHDResponse(built: built, source: label, extraHeaders: extraHeaders) }),
                        status: built.status, on: connection)
                }
                return queue(MHDResponse(built: built, source: label, extraHeaders: extraHeaders), status: built.status, on: connection)
            }
        case .resolved(let waiting):  // .respondAfter, .forward, .admin, .upgrade: `execute` parks them and sends what they leave
            return execute(.resolved(waiting), for: request, serving: serving, admin: admin, connection: connection, state: state)
        }
    }

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
