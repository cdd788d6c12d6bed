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

    public init(_ response: Response, scenario: String) {
        self.response = response
        self.scenario = scenario
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
