import Foundation
package import Logging
import MockdSystem
package import MockdCore
import MockdDisk
package import MockdHTTP

/// Suites run at once, and their in-process servers hold thousands of descriptors together (each
/// libmicrohttpd thread an epoll and an eventfd): past a soft limit of 1,024, and far past macOS's
/// 256. Raised once, toward the hard limit, as mockd raises its own.
private let descriptorsRaised: Void = OpenFileLimit.raise()

/// The one way every suite runs an in-process mockd: an `HTTPServer` on 127.0.0.1 with a port
/// of its own (port 0) and two threads, serving `snapshot`. It runs `body`, then always shuts the
/// server down off the cooperative pool (`stopOffThePool`), also when `body` throws.
/// `attach` sees the server before it starts (a reloader is wired to it there).
package func withServer<T>(
    snapshot: Snapshot,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    runtime: RuntimeState = RuntimeState(),
    logger: Logger,
    journal: RequestJournal = RequestJournal(),
    missHandler: (any MissHandler)? = nil,
    reloads: (any Reloading)? = nil,
    mockWriter: (any MockFileWriting)? = nil,
    pusher: (any PushSending)? = nil,
    attach: (HTTPServer) -> Void = { _ in },
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    _ = descriptorsRaised
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.threads = 2
    configure(&configuration)
    let server = HTTPServer(
        configuration: configuration, snapshot: snapshot, runtime: runtime, logger: logger,
        journal: journal, missHandler: missHandler, reloads: reloads, mockWriter: mockWriter, pusher: pusher)
    attach(server)
    try server.start()
    let result: Result<T, any Error>
    do {
        result = .success(try await body(server))
    } catch {
        result = .failure(error)
    }
    await stopOffThePool(server)
    return try result.get()
}

/// `withServer` for a mock root on disk (the loader must accept it).
package func withServer<T>(
    root: String,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    logger: Logger,
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    let loaded = MockDataLoader(files: DiskFiles(), root: root).load()
    guard let snapshot = loaded.snapshot else { throw ServerHarnessError("cannot load \(root): \(loaded.diagnostics)") }
    return try await withServer(snapshot: snapshot, configure: configure, logger: logger, body)
}

/// Shuts `server` down on a thread of its own: shutdown waits (up to `timeout`) for requests in
/// flight, and must not hold a thread of the cooperative pool, which runs the work those requests
/// (and every other test) wait for.
package func stopOffThePool(_ server: HTTPServer, timeout: Duration = .seconds(2)) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            server.shutdown(timeout: timeout)
            continuation.resume()
        }.start()
    }
}

package struct ServerHarnessError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
