#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CMicroHTTPD
import MockdLock
import Synchronization

/// One libmicrohttpd daemon on one listen address. Owns the `MHD_Daemon`: it is stopped when
/// this object goes away, so no path can leak a running daemon or stop one twice.
final class Daemon: Sendable {
    /// Used from one thread at a time: created, quiesced and stopped by the server's owner.
    nonisolated(unsafe) private let raw: OpaquePointer
    /// The listen socket `quiesce` took back; closed only after the daemon stopped (libmicrohttpd's rule).
    private let quiescedSocket = Lock<Int32?>(nil)

    /// The session this daemon's requests belong to (a session's port); nil: the main port.
    let sessionPort: SessionListener?

    /// Starts serving `address` for `server` (the callbacks' context, unretained: the server
    /// owns its daemons). Nil when libmicrohttpd cannot (see `errno`). `sessionPort`: every
    /// request here belongs to that session (the request-line callback gets it as its context).
    init?(on address: ListenAddress, configuration: ServerConfiguration, server: HTTPServer, sessionPort: SessionListener? = nil) {
        self.sessionPort = sessionPort
        var flags =
            MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_USE_TURBO.rawValue | MHD_ALLOW_UPGRADE.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var storage = address.storage
        let context = Unmanaged.passUnretained(server).toOpaque()
        let startedContext = sessionPort.map { Unmanaged.passUnretained($0).toOpaque() } ?? context
        let started = withUnsafeMutablePointer(to: &storage) { addressPointer -> OpaquePointer? in
            var options: [MHD_OptionItem] = [
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(addressPointer)),
                // Our own limit refuses connections in the accept policy with a log line; libmicrohttpd's
                // (which only stops accepting, leaving clients waiting) sits above it.
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.maxConnections + 64, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.maxHeaderBytes, ptr_value: nil),
                MHD_OptionItem(option: .LISTEN_BACKLOG_SIZE, value: 1024, ptr_value: nil),
            ]
            // Level 1: libmicrohttpd's "more strict protocol interpretation, within the limits
            // set by RFCs for HTTP servers" (its advice for loaded package servers): it refuses
            // more malformed request heads itself, so a proxy in front has less room to read a
            // request differently, and every client that follows the RFCs (URLSession, curl,
            // browsers) is still served. 2 and 3 refuse beyond what the RFCs let a server refuse
            // (libmicrohttpd: "for testing of HTTP clients"); 0 lets more through. 0.9.75 has
            // no such option; mockd's own framing rules (`RequestFraming`) apply on every version.
            if MicroHTTPDVersion.running.hasClientDiscipline {
                options.append(cmhd_client_discipline_option(1))
            }
            if configuration.threads > 1 {
                options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
            }
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return options.withUnsafeMutableBufferPointer { buffer in
                // A session's port has its own request-line callback (C function pointers cannot be chosen by an expression).
                if sessionPort != nil {
                    return cmhd_start_daemon(
                        flags, accessHandler, context, requestCompleted, context, sessionRequestStarted, startedContext,
                        acceptPolicy, context, connectionNotified, context, libraryLog, context, buffer.baseAddress)
                }
                return cmhd_start_daemon(
                    flags, accessHandler, context, requestCompleted, context, requestStarted, startedContext,
                    acceptPolicy, context, connectionNotified, context, libraryLog, context, buffer.baseAddress)
            }
        }
        guard let started else { return nil }
        raw = started
    }

    /// The port the daemon listens on (the one picked, with port 0).
    var boundPort: Int { Int(cmhd_daemon_bound_port(raw)) }

    /// Stops accepting new connections; open ones are still served.
    func quiesce() {
        let socket = MHD_quiesce_daemon(raw)
        quiescedSocket.withLock { $0 = socket }
    }

    deinit {
        MHD_stop_daemon(raw)
        if let socket = quiescedSocket.withLock({ $0 }), socket >= 0 { close(socket) }
    }
}
