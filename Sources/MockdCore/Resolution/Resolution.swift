/// The whole decision for one request: what to send, when, or whom to ask instead. The core
/// decides it (`Resolver`), including which part wins; the adapter only carries it out. The
/// adapter also parks a decision (a delay) and carries out what it said when the time comes.
package enum Resolution: Sendable {
    /// Send `reply` now.
    case respond(Reply)
    /// Send `reply` once `delay` is over (`--delay` plus the response's `delayMs`).
    case respondAfter(Duration, Reply)
    /// Break the connection the way `fault` says (`reply` is what `truncated` cuts short), after
    /// `delay`. A `timeout` fault sends nothing: the adapter holds the request until its stall
    /// limit and closes it.
    case fault(Fault, Reply, after: Duration)
    /// Nothing here answers and `--proxy` is on: the upstream's answer is sent as it comes,
    /// `after` the upstream's time (`--delay`, as for every answer). `warning`: as `Reply.warning`.
    case forward(scenario: String, after: Duration = .zero, warning: String? = nil)
    /// The admin API (`/__mockd/`) answers: the call is decided (guard, endpoint, arguments),
    /// and `AdminCall.work` says when its answer can be made.
    /// Boxed, as `upgrade` is: an admin call's filter and wait would otherwise set the size of
    /// every resolution.
    indirect case admin(AdminCall)
    /// A WebSocket route takes the connection: send the 101 head, then hold the conversation.
    /// Boxed (`indirect`): inline, its payload would make every resolution many times its size,
    /// and each request copies its resolution a few times (callgrind: +2,400 instructions).
    indirect case upgrade(WebSocketUpgrade)
    /// A WebSocket upgrade nothing here answers, with `--proxy` on: the adapter opens the
    /// upstream's connection and carries out `WebSocketRelay.answer` of the upstream's reply.
    indirect case relay(WebSocketRelay)
    /// The answer, then a push once it is on its way (a route's `"then"`). Boxed: only such a
    /// route pays for it.
    indirect case thenPush(Resolution, PushOrder)
}

extension Resolution {
    /// How long before the answer starts: a `"then"` push waits for it too, so it follows the answer.
    package var waitBeforeAnswer: Duration {
        switch self {
        case .respondAfter(let delay, _), .fault(_, _, let delay), .forward(_, let delay, _): delay
        case .thenPush(let answer, _): answer.waitBeforeAnswer
        case .respond, .admin, .upgrade, .relay: .zero
        }
    }
}

/// When an admin answer can be made.
package enum AdminWork: Sendable, Equatable {
    /// At once, on the request's thread; the effects its steps name (a reload, a new mock file,
    /// a session port) are carried out off the server's threads.
    case now
    /// A dashboard's long poll (`GET /__mockd/events`): answer once the journal has an entry
    /// numbered after `after` or the runtime state's `changes` differ from `state`, or after `wait`.
    case waitForNews(after: UInt64, state: UInt64?, wait: Duration)
    /// A test waiting for its app (`GET /__mockd/requests?count=N&wait=S`): answer once the
    /// journal holds `count` entries `filter` selects, or after `wait` with what there is.
    case waitForRequests(RequestFilter, count: Int, wait: Duration)
}

/// A stream's answer: the head sent first (status, headers, source), then the pieces.
/// A class, so that `Reply.Response` stays the size it was for every other answer.
package final class StreamedResponse: Sendable {
    package let head: BuiltResponse
    package let stream: ResponseStream

    init(head: BuiltResponse, stream: ResponseStream) {
        self.head = head
        self.stream = stream
    }
}

/// A response to send and what to log with it.
package struct Reply: Sendable {
    package enum Response: Sendable {
        /// Served from the snapshot's prepared responses (no per-request work).
        case prepared(PreparedResponse)
        /// Built for this request.
        case built(BuiltResponse)
        /// Sent in pieces over time (a route's `"stream"`, a `.sse` file): its head, then its pieces.
        case streamed(StreamedResponse)
    }

    package var response: Response
    /// The scenario the request was resolved in ("" when none applies: preflight, admin).
    package var scenario: String
    /// Something the client should know but that does not change the answer (an unknown
    /// scenario named by `X-Mock-Scenario`): sent as `X-Mockd-Warning` and logged.
    package var warning: String?

    package init(_ response: Response, scenario: String) {
        self.response = response
        self.scenario = scenario
    }

    /// The header that carries a warning.
    private static let warningHeader = "X-Mockd-Warning"

    /// This reply with `text` as its warning, sent as a header of a response built for this
    /// request (a prepared response is shared by every request, so it is copied, only in this
    /// rare case: the fast path never sees a warning). `logged: false` for a warning already
    /// logged once where it arose (a failed reload), not again with every request.
    package func warned(_ text: String, logged: Bool = true) -> Reply {
        var built: BuiltResponse
        switch response {
        case .prepared(let prepared):
            built = BuiltResponse(copying: prepared)
        case .built(let existing):
            built = existing
            built.reuseID = nil  // no longer the cached response it was numbered for
        case .streamed(let streamed):
            var head = streamed.head
            head.headers.append(HTTPHeader(Self.warningHeader, text))
            var warned = Reply(.streamed(StreamedResponse(head: head, stream: streamed.stream)), scenario: scenario)
            warned.warning = logged ? text : warning
            return warned
        }
        built.headers.append(HTTPHeader(Self.warningHeader, text))
        var warned = Reply(.built(built), scenario: scenario)
        warned.warning = logged ? text : warning
        return warned
    }

    /// The response when it was built for this request; nil for a prepared one.
    package var builtResponse: BuiltResponse? {
        if case .built(let built) = response { built } else { nil }
    }

    package var status: Int {
        switch response {
        case .prepared(let prepared): prepared.status
        case .built(let built): built.status
        case .streamed(let streamed): streamed.head.status
        }
    }

    package var source: String {
        switch response {
        case .prepared(let prepared): prepared.source
        case .built(let built): built.source
        case .streamed(let streamed): streamed.head.source
        }
    }

    package var origin: Origin {
        switch response {
        case .prepared(let prepared): prepared.origin
        case .built(let built): built.origin
        case .streamed(let streamed): streamed.head.origin
        }
    }
}

/// What a server does beside serving its snapshot; the resolver weighs these against it.
package struct ResolutionPolicy: Sendable {
    /// `--delay`: added to every answer but the admin API's, misses (the 404 report, and the
    /// upstream's answer with `--proxy`) included, so that mocked and real endpoints compare.
    package var globalDelay: Duration
    /// `--cors`: a browser's preflight (`OPTIONS` with `Access-Control-Request-Method`) gets 204.
    package var answersPreflight: Bool
    /// `/__mockd/` is the admin API (not `--no-admin`).
    package var adminEnabled: Bool
    /// Who may call it (`--allowed-hosts`, `--admin-token`).
    package var adminAccess: AdminAccess
    /// `--proxy`: a miss goes upstream instead of getting the 404 report.
    package var forwardsMisses: Bool
    /// `--push-bundle-id`: the app a route's push goes to when nothing else names one.
    package var pushBundleID: String?

    package init(
        globalDelay: Duration = .zero, answersPreflight: Bool = false, adminEnabled: Bool = false, adminAccess: AdminAccess = AdminAccess(),
        forwardsMisses: Bool = false, pushBundleID: String? = nil
    ) {
        self.pushBundleID = pushBundleID
        self.globalDelay = globalDelay
        self.answersPreflight = answersPreflight
        self.adminEnabled = adminEnabled
        self.adminAccess = adminAccess
        self.forwardsMisses = forwardsMisses
    }
}
