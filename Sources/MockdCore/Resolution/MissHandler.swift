/// What answers a request that nothing matched, when there is something besides the 404
/// report: the upstream, with `--proxy`. The adapter parks the connection while it runs.
package protocol MissHandler: Sendable {
    /// Gives `then` the answer to send, once, on a thread of the handler's (the adapter's
    /// request stays parked until then; no task or thread of the adapter waits for it).
    func answer(_ request: MockRequest, then: @escaping @Sendable (BuiltResponse) -> Void)
    /// Requests in flight end (shutdown).
    func shutdown()
}
