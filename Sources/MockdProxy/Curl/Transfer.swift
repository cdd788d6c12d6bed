import MockdCore
import MockdLock
import Synchronization

/// What the loop thread needs to start one upstream request; built by `UpstreamProxy.makeRequest`.
struct UpstreamRequest: Sendable {
    enum Body: Sendable, Equatable {
        /// No body, no Content-Length (GET, DELETE…).
        case none
        /// HEAD: no body either way (CURLOPT_NOBODY, so curl does not wait for one).
        case head
        /// These bytes, with a Content-Length (even 0, for POST/PUT/PATCH).
        case bytes([UInt8])
    }

    var url: String
    var method: String
    /// `Name: value` lines for CURLOPT_HTTPHEADER (`Name;` for an empty value; `Name:` removes one curl would add).
    var headerLines: [String]
    var body: Body
    /// Ask for the encodings libcurl can decode and decode the answer (recording), instead of relaying it as encoded.
    var decodeAnswer: Bool
    var timeout: Duration
    var maxResponseBytes: Int
}

/// How one upstream exchange ended.
enum TaskResult: Sendable {
    case answer(status: Int, headers: [HTTPHeader], body: [UInt8])
    case failure(ProxyFailure)
}

/// One `forward` call as the caller and the loop thread share it: what to do with its result,
/// done exactly once, and whether the caller was cancelled.
final class Transfer: Sendable {
    let request: UpstreamRequest
    private struct State {
        var completion: (@Sendable (TaskResult) -> Void)?
        var cancelled = false
        var finished = false
    }
    private let state = Lock(State())

    init(_ request: UpstreamRequest) {
        self.request = request
    }

    static let cancelledFailure = ProxyFailure(
        .cancelled, reason: "the request was cancelled (mockd is shutting down or the client went away)")

    /// Stores what to do with the result; false, with it done (503), when the caller is already cancelled.
    func begin(_ completion: @escaping @Sendable (TaskResult) -> Void) -> Bool {
        let cancelled = state.withLock { state in
            if state.cancelled {
                state.finished = true
                return true
            }
            state.completion = completion
            return false
        }
        if cancelled { completion(.failure(Self.cancelledFailure)) }
        return !cancelled
    }

    /// Marks the caller cancelled; true when the transfer was handed to the loop and is not finished (the loop must stop it).
    func markCancelled() -> Bool {
        state.withLock { state in
            state.cancelled = true
            return state.completion != nil && !state.finished
        }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Hands the caller its result, on the calling thread (the loop's); later calls do nothing.
    func finish(_ result: TaskResult) {
        let completion: (@Sendable (TaskResult) -> Void)? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.completion = nil }
            return state.completion
        }
        completion?(result)
    }
}
