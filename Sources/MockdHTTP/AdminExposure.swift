import MockdCore

/// What keeps the admin API and the journal to whom they are meant for: the Host guard
/// (DNS rebinding), no `--cors` on `/__mockd/`, and (in `RequestLog`) credential redaction in the journal.
extension HTTPServer {
    /// `--cors` never reaches the admin API: a web page of another origin must not read it.
    func extraHeaders(for built: BuiltResponse) -> [HTTPHeader] {
        built.source == "admin" ? [] : configuration.corsHeaders
    }

    func extraHeaders(for reply: Reply) -> [HTTPHeader] {
        guard case .built(let built) = reply.response else { return configuration.corsHeaders }
        return extraHeaders(for: built)
    }

    /// The admin API's answer to a request whose Host may be a rebound name, or nil when the
    /// Host is one it serves.
    func adminHostRefusal(_ request: MockRequest) -> BuiltResponse? {
        let host = request.headers.first(named: "Host")
        guard !AdminHostGuard(allowedHosts: configuration.allowedHosts).allows(host: host), let host else { return nil }
        return BuiltResponse.json(status: 403, AdminHostGuard.refusal(host: host), source: "admin")
    }
}
