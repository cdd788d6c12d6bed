#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdLock
import Synchronization

/// The server's own port: its daemons, one per address the host names, and the port and URLs
/// they listen on. Session ports are `SessionTable`'s; when either serves is `Lifecycle`'s.
final class MainPort: Sendable {
    private let daemons = Lock<[Daemon]>([])
    private let boundPort = Atomic<Int>(0)
    private let listenURLs = Lock<[String]>([])

    /// The port actually bound (useful with port 0).
    var port: Int { boundPort.load(ordering: .acquiring) }
    /// `http://127.0.0.1:PORT`, one per listen address.
    var urls: [String] { listenURLs.withLock { $0 } }

    /// Starts a daemon for `server` on every address of `configuration.host`, all on one port
    /// (the first one's, with port 0). Throws with the address and the reason when one cannot
    /// listen; those started so far stop.
    func start(_ configuration: ServerConfiguration, for server: HTTPServer) throws(ServerError) {
        let addresses = try ListenAddress.resolve(host: configuration.host, port: configuration.port)
        var port = configuration.port
        var started: [Daemon] = []
        var urls: [String] = []
        for address in addresses {
            let bound = address.with(port: port)
            guard let daemon = Daemon(on: bound, configuration: configuration, server: server) else {
                // Before the daemons started so far stop, which can change errno.
                let code = bound.bindError() ?? errno
                started.removeAll()
                throw .cannotListen(address: bound.hostText, port: port, errno: code)
            }
            port = daemon.boundPort
            started.append(daemon)
            urls.append("http://\(bound.hostText):\(port)")
        }
        boundPort.store(port, ordering: .releasing)
        listenURLs.withLock { $0 = urls }
        daemons.withLock { $0 = started }
    }

    /// The daemons, taken for shutdown to drain (each stops when the last reference goes).
    func takeDaemons() -> [Daemon] {
        daemons.withLock { daemons in
            defer { daemons = [] }
            return daemons
        }
    }
}
