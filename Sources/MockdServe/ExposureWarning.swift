import MockdHTTP

/// The one startup warning when the admin API and the journal are reachable from the network
/// without a token.
enum ExposureWarning {
    /// nil when the admin API is off, needs a token, or only loopback can reach it.
    static func text(_ server: ServerConfiguration) -> String? {
        guard server.adminEnabled, server.adminToken == nil, !server.isLoopbackOnly else { return nil }
        let journal =
            server.redactsJournalCredentials
            ? "with credential values redacted" : "with credential values in clear (--journal-credentials keep)"
        return "the admin API (/__mockd/) and the request journal (\(journal)) are open to anyone who can reach \(server.host): "
            + "set --admin-token (MOCKD_ADMIN_TOKEN) to require a token, or --no-admin to turn them off"
    }
}
