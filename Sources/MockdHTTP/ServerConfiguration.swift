import MockdCore
import MockdSystem

/// How the HTTP server listens and what it puts up with. Defaults suit a laptop.
package struct ServerConfiguration: Sendable {
    /// `127.0.0.1` (default), `localhost` (127.0.0.1 and ::1), `0.0.0.0` (containers), an IP or a host name.
    package var host: String = "127.0.0.1"
    /// 0 takes a free port; `HTTPServer.port` tells which.
    package var port: Int = 8080
    /// Worker threads; 1 = a single epoll thread.
    package var threads: Int = ServerConfiguration.defaultThreads
    /// Request bodies larger than this get 413.
    package var maxBodyBytes: Int = 10 * 1024 * 1024
    /// At this many open connections a new one evicts the one waiting longest for its request
    /// head (then the longest-idle keep-alive one); only when all are busy is it refused.
    package var maxConnections: Int = 4096
    /// A connection idle (or a client this slow) for this long is closed. Suspended requests do not count.
    package var idleTimeoutSeconds: Int = 30
    /// A request head (line and headers) must be complete this long after the connection was
    /// accepted (or, on a keep-alive connection, after its request line): a client dribbling
    /// bytes cannot hold a connection by resetting the idle timeout. Answered 408.
    package var headTimeoutSeconds: Int = 30
    /// `--min-body-rate`: a request body must bring at least this many bytes a second, judged
    /// over `bodyRateWindowSeconds`, or its connection gets 408 and is closed (0: no minimum).
    /// libmicrohttpd's idle timeout restarts on every byte, so a body dribbled a byte at a time
    /// would otherwise hold its connection (and its share of `--max-body-memory`) for ever.
    package var minimumBodyRate: Int = 1024
    package var bodyRateWindowSeconds: Int = 10
    /// Bytes for a request's line and headers; larger requests get 414 (URL) or 431 (headers).
    /// It is also libmicrohttpd's per-connection memory, which it clears for every request:
    /// 16 KiB (nginx allows 8 KiB per header line) halves that work and the memory of parked
    /// connections compared with libmicrohttpd's 32 KiB default.
    package var maxHeaderBytes: Int = 16 * 1024
    /// Memory all request bodies held at once may take (`--max-body-memory`); past it, 503.
    package var maxBodyMemoryBytes: Int = 256 * 1024 * 1024
    /// Serve `/__mockd/`.
    package var adminEnabled: Bool = true
    /// When set, admin calls need `Authorization: Bearer <token>`.
    package var adminToken: String? = nil
    /// `--cors`: every answer allows any origin, and preflight requests get 204 (for web apps and
    /// WKWebView content served from another origin).
    package var cors: Bool = false
    /// `--delay`: added to every mocked answer.
    package var globalDelay: Duration = .zero
    /// Most requests parked at once (delayed, stalled by a timeout fault, or waiting on the
    /// upstream); past it a request that would be parked gets 503 at once.
    package var maxParked: Int = 10_000
    /// `--max-ws-message-bytes`: a longer WebSocket message from the app is closed with 1009.
    package var maxWebSocketMessageBytes: Int = 1 << 20
    /// `--ws-ping-interval`: seconds between mockd's own pings on each WebSocket connection; 0: none.
    package var webSocketPingSeconds: Int = 0
    /// Session ports (`POST /__mockd/sessions`) open at most this many at once.
    package var maxSessions: Int = 64
    /// Where session ports are taken from (`--session-ports A-B`, for a container that must
    /// publish them); nil: any free port.
    package var sessionPorts: ClosedRange<Int>? = nil

    /// `50000-50063` as a range of `sessionPorts`: two ports, the first not above the second;
    /// nil for anything else.
    package static func portRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]), 1 <= low, low <= high, high <= 65535 else {
            return nil
        }
        return low...high
    }
    /// `--push-bundle-id`: the app a push goes to when neither the call, its session nor the
    /// payload names one.
    package var pushBundleID: String? = nil
    /// A `timeout` fault holds the request this long, then closes the connection: a client
    /// that never gives up cannot pin a slot forever.
    package var stallLimit: Duration = .seconds(120)

    /// Names the admin API answers besides loopback names, IP literals and single-label names
    /// (`--allowed-hosts`); see `AdminHostGuard`.
    package var allowedHosts: [String] = []
    /// Whether the journal hides credential values (`--journal-credentials keep|redact`); nil:
    /// redact when mockd listens beyond loopback, keep on loopback (tests assert them).
    package var journalCredentials: CredentialPolicy? = nil

    package enum CredentialPolicy: String, Sendable, CaseIterable {
        case keep, redact
    }

    /// True when `host` binds only loopback addresses.
    package var isLoopbackOnly: Bool { ListenAddress.isLoopback(host: host) }

    package var redactsJournalCredentials: Bool {
        switch journalCredentials {
        case .keep?: false
        case .redact?: true
        case nil: !isLoopbackOnly
        }
    }

    package init() {}

    /// Headers `--cors` adds to every answer.
    var corsHeaders: [HTTPHeader] { cors ? Self.allowAnyOrigin : [] }

    /// One shared array: requests that build a response ask for it, and must not allocate it.
    private static let allowAnyOrigin = [HTTPHeader("Access-Control-Allow-Origin", "*"), HTTPHeader("Access-Control-Expose-Headers", "*")]

    /// The CPUs this process may run on (its affinity mask, so `taskset` and container CPU sets count).
    private static var defaultThreads: Int { max(1, min(CPUSet.usableCount, 8)) }
}
