/// What answers a request that nothing matched, when there is something besides the 404
/// report: the upstream, with `--proxy`. The adapter parks the connection while it runs.
package protocol MissHandler: Sendable {
    /// The answer to send, and the source to log (`proxy`, `proxy error`).
    func answer(_ request: MockRequest) async -> BuiltResponse
    /// Requests in flight end (shutdown).
    func shutdown()
}
