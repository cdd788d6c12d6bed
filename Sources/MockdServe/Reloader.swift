#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
package import Logging
package import MockdCore
package import MockdHTTP
package import MockdSystem
import MockdLock
import Synchronization

/// Reads files and routes again and has the server serve them if they are valid; otherwise the
/// server keeps the last good configuration. Asked by SIGHUP, the file watcher and
/// `POST /__mockd/reload`; tells systemd while it works (`Type=notify-reload`).
package final class Reloader: Reloading {
    private let load: @Sendable () -> MockDataLoader.Result
    private let logger: Logger
    private let systemd: SystemdNotifier
    /// The server it reloads. Strong: the server holds this reloader weakly, for its admin API.
    private let target = Lock<HTTPServer?>(nil)
    /// One reload at a time.
    private let reloading = Lock<Void>(())
    private let lastReport = Lock<ReloadReport?>(nil)
    /// When the configuration served was loaded, and when reloads began to fail (nil: they do not).
    private let history: Lock<(servingSince: Double, failingSince: Double?)> = Lock((Reloader.now(), nil))

    package init(
        logger: Logger, systemd: SystemdNotifier = SystemdNotifier(socketPath: nil), load: @escaping @Sendable () -> MockDataLoader.Result
    ) {
        self.load = load
        self.logger = logger
        self.systemd = systemd
    }

    /// The server whose snapshot reloads replace (set once, after the server is made with this reloader).
    package func serve(_ server: HTTPServer) {
        target.withLock { $0 = server }
    }

    package var lastReload: ReloadReport? { lastReport.withLock { $0 } }

    /// Requests already resolved finish on the old configuration.
    @discardableResult
    package func reload(trigger: String) -> ReloadReport {
        reloading.withLock { _ in
            let started = ContinuousClock.now
            let server = target.withLock { $0 }
            systemd.notify("RELOADING=1\nMONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())")
            defer { if let server { systemd.notify("READY=1\nSTATUS=\(Self.statusLine(server))") } }
            guard let server else {
                return ReloadReport(
                    time: Self.now(), ok: false, files: 0, routes: 0, errors: ["reload is not available"],
                    durationMilliseconds: 0, trigger: trigger)
            }
            let result = load()
            let took = ContinuousClock.now - started
            let elapsed = Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15
            let report: ReloadReport
            if let snapshot = result.snapshot {
                history.withLock { $0 = (Self.now(), nil) }
                server.install(snapshot)
                report = ReloadReport(
                    time: Self.now(), ok: true, files: snapshot.fileCount, routes: snapshot.routes.count,
                    errors: [], durationMilliseconds: elapsed, trigger: trigger)
                logger.info(
                    "reloaded",
                    metadata: [
                        "mockd.trigger": "\(trigger)", "mockd.files": "\(snapshot.fileCount)",
                        "mockd.routes": "\(snapshot.routes.count)", "mockd.durationMs": "\(Int(elapsed))",
                    ])
                logger.log(result.diagnostics)
            } else {
                let errors = result.diagnostics.filter { $0.severity == .error }.map(\.description)
                let serving = server.snapshot
                report = ReloadReport(
                    time: Self.now(), ok: false, files: serving.fileCount, routes: serving.routes.count,
                    errors: errors, durationMilliseconds: elapsed, trigger: trigger)
                let (servingSince, since) = history.withLock { history in
                    if history.failingSince == nil { history.failingSince = report.time }
                    return (history.servingSince, history.failingSince ?? report.time)
                }
                // The same snapshot again, now saying on every answer that it is the last good one.
                server.install(serving, failedReload: FailedReload(since: since, servingSince: servingSince, errors: errors))
                logger.error(
                    "reload failed; still serving the last good configuration",
                    metadata: ["mockd.trigger": "\(trigger)", "mockd.errors": "\(errors.count)"])
                logger.log(result.diagnostics)
            }
            lastReport.withLock { $0 = report }
            // After the report is in place: a dashboard that is told reads this one.
            server.announceChange()
            return report
        }
    }

    /// For systemd's STATUS= line.
    static func statusLine(_ server: HTTPServer) -> String {
        let snapshot = server.snapshot
        return
            "serving \(Counted.text(snapshot.fileCount, "file")) and \(Counted.text(snapshot.routes.count, "route")) on \(server.urls.joined(separator: " "))"
    }

    static func now() -> Double {
        Date().timeIntervalSince1970
    }
}
