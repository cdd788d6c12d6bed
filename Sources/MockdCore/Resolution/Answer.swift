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

    public init(_ response: Response, scenario: String, delay: Duration = .zero, fault: Fault? = nil, isMiss: Bool = false) {
        self.response = response
        self.scenario = scenario
        self.delay = delay
        self.fault = fault
        self.isMiss = isMiss
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
