import Logging
import MockdLock
import Synchronization

/// Keeps every log event, for tests that check the access log.
final class LogRecorder: Sendable {
    private let events = Lock<[LogEvent]>([])

    func append(_ event: LogEvent) { events.withLock { $0.append(event) } }
    var all: [LogEvent] { events.withLock { $0 } }

    var logger: Logger {
        Logger(label: "mockd-test", factory: { _ in RecordingLogHandler(recorder: self) })
    }
}

struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { recorder.append(event) }
}
