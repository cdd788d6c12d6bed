package import Logging
import MockdCore
package import MockdHTTP
package import MockdProxy

/// Everything `mockd serve` runs with, as plain values. Its defaults are the configuration types'
/// own (`ServerConfiguration`, `RequestJournal`, `Scenario`), and the command line's options start
/// from `ServeSettings.defaults`, so `--help` shows what a run given no option uses.
package struct ServeSettings: Sendable {
    package var server = ServerConfiguration()
    /// The scenario of requests that name none.
    package var scenario = Scenario.default
    package var logFormat = MockdLogHandler.Format.text
    package var logLevel = Logger.Level.info
    /// `--proxy`: what answers a request nothing matched (nil: a 404).
    package var proxy: ProxyConfiguration?
    /// Reload when a file under the root or the routes folder changes.
    package var watch = true
    /// `--state-dir`: where resources' global state is kept across restarts (nil: nowhere).
    package var stateDir: String?
    package var journalSize = RequestJournal.defaultCapacity
    package var journalBodyBytes = RequestJournal.defaultBodyLimit
    /// `--push-command`: what sends pushes instead of `xcrun` (nil: `xcrun` on `PATH`, if any).
    package var pushCommand: String?

    package init() {}

    /// What a run given no option uses, and what `--help` shows.
    package static let defaults = ServeSettings()
}
