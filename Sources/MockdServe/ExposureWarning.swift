import Logging
import MockdHTTP

/// The one startup warning when the admin API and the journal are reachable from the network
/// without a token: a fixed message, with the host they are open on and how the journal keeps
/// credentials (`redacted`, or `in clear` with `--journal-credentials keep`) as fields.
enum ExposureWarning {
    static let message: Logger.Message = """
        the admin API (/__mockd/) and the request journal are open to anyone who can reach the host: \
        set --admin-token (MOCKD_ADMIN_TOKEN) to require a token, or --no-admin to turn them off
        """

    /// The warning's fields; nil when the admin API is off, needs a token, or only loopback can reach it.
    static func metadata(_ server: ServerConfiguration) -> Logger.Metadata? {
        guard server.adminEnabled, server.adminToken == nil, !server.isLoopbackOnly else { return nil }
        return ["mockd.host": "\(server.host)", "mockd.journalCredentials": server.redactsJournalCredentials ? "redacted" : "in clear"]
    }
}
