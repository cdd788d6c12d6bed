import MockdCore

/// What `UpstreamProxy.forward` gives back: always a response to send, never a throw.
package struct ProxyOutcome: Sendable {
    /// The upstream's answer as relayed (`source` "proxy"), or mockd's JSON error answer (`source` "proxy error").
    var response: BuiltResponse
    /// From handing the request to the HTTP client to its last byte of answer (or the failure).
    var upstreamDuration: Duration
    /// nil when the upstream answered (whatever its status).
    var failure: ProxyFailure?
    /// The upstream's `Content-Encoding` (`gzip`) when the body was decoded on the way (recording).
    var undoneCoding: String?

    init(response: BuiltResponse, upstreamDuration: Duration, failure: ProxyFailure?) {
        self.response = response
        self.upstreamDuration = upstreamDuration
        self.failure = failure
    }
}

/// Why the upstream gave no answer.
struct ProxyFailure: Sendable, Equatable, Error, CustomStringConvertible {
    enum Kind: String, Sendable {
        /// Refused, down, DNS failure, connection lost: 502.
        case unreachable = "upstream unreachable"
        /// No complete answer within `--proxy-timeout`: 504.
        case timedOut = "upstream timed out"
        /// The TLS handshake or the certificate check failed: 502.
        case tls = "upstream TLS failure"
        /// The answer is larger than `maxResponseBytes`: 502.
        case tooLarge = "upstream answer too large"
        /// The request could not be turned into an upstream URL: 502.
        case badRequest = "cannot forward the request"
        /// The proxy was shut down or the request abandoned: 503.
        case cancelled = "proxy request cancelled"
        /// Anything else the HTTP client reported (a malformed answer…): 502.
        case failed = "upstream failed"
    }

    var kind: Kind
    /// The HTTP client's words (libcurl's), e.g. "Failed to connect to 127.0.0.1 port 9 …".
    var reason: String

    init(_ kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    var status: Int {
        switch kind {
        case .timedOut: return 504
        case .cancelled: return 503
        default: return 502
        }
    }

    var description: String { "\(kind.rawValue): \(reason)" }
}
