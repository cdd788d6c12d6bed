/// What the core decided to answer to one request. The adapter turns it into bytes.
public struct Answer: Sendable {
    public enum Response: Sendable {
        /// Served from the snapshot's prepared responses (no per-request work).
        case prepared(PreparedResponse)
        /// Built for this request.
        case built(BuiltResponse)
    }

    public var response: Response
    /// The scenario the request was resolved in.
    public var scenario: String
    /// Wait this long before answering (`--delay` plus the response's `delayMs`).
    public var delay: Duration
    /// Instead of (or while) answering, break the connection this way.
    public var fault: Fault?
    /// Nothing matched: the answer is the 404 report (or, with `--proxy`, upstream's).
    public var isMiss: Bool
    /// Something the client should know but that does not change the answer (an unknown
    /// scenario named by `X-Mock-Scenario`): sent as `X-Mockd-Warning` and logged.
    public var warning: String?

    public init(_ response: Response, scenario: String, delay: Duration = .zero, fault: Fault? = nil, isMiss: Bool = false) {
        self.response = response
        self.scenario = scenario
        self.delay = delay
        self.fault = fault
        self.isMiss = isMiss
    }

    /// The header that carries a warning.
    public static let warningHeader = "X-Mockd-Warning"

    /// This answer with `warning` added, as a header of a response built for this request
    /// (a prepared response is shared by every request, so it is copied, only in this rare case).
    public func warning(_ text: String) -> Answer {
        var warned = self
        warned.warning = text
        var built: BuiltResponse
        switch response {
        case .prepared(let prepared):
            built = BuiltResponse(status: prepared.status, headers: prepared.headers, body: prepared.body.array, source: prepared.source)
        case .built(let existing):
            built = existing
            built.reuse = nil
        }
        built.headers.append(HTTPHeader(Self.warningHeader, text))
        warned.response = .built(built)
        return warned
    }

    public var status: Int {
        switch response {
        case .prepared(let prepared): prepared.status
        case .built(let built): built.status
        }
    }

    public var source: String {
        switch response {
        case .prepared(let prepared): prepared.source
        case .built(let built): built.source
        }
    }
}
