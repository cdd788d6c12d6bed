#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch
package import Logging
import MockdCore
import MockdSystem
import MockdLock

/// mockd's log handler: one line per event, as text or JSON, with the access-log fields
/// (`method`, `path`, `status`, `source`, `durationMs`) laid out for reading.
package struct MockdLogHandler: LogHandler {
    package enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    let label: String
    let format: Format
    let sink: LogSink

    package init(label: String, format: Format, sink: LogSink, level: Logger.Level = .info) {
        self.label = label
        self.format = format
        self.sink = sink
        self.logLevel = level
    }

    /// Writes the access lines that come through swift-log (a server given no `accessLog`).
    var accessWriter: AccessLogWriter { AccessLogWriter(format: format, sink: sink) }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let fields: Logger.Metadata
        if metadata.isEmpty {
            fields = event.metadata ?? [:]
        } else {
            fields = metadata.merging(event.metadata ?? [:]) { _, new in new }
        }
        if fields.count == 1, case .stringConvertible(let value)? = fields[AccessRecord.metadataKey], let record = value as? AccessRecord {
            accessWriter.write(record)
            return
        }
        let line: String
        switch format {
        case .text: line = Self.text(event, fields)
        case .json: line = Self.json(event, fields)
        }
        sink.write(line, urgent: event.level >= .warning)
    }

    /// `2026-11-22T11:30:00.123Z warning message key=value` (access lines: see `AccessLogWriter`).
    static func text(_ event: LogEvent, _ fields: Logger.Metadata) -> String {
        var line = Timestamp.now() + " \(event.level) \(event.message)"
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        return line
    }

    static func json(_ event: LogEvent, _ fields: Logger.Metadata) -> String {
        var line = #"{"time":"\#(Timestamp.now())","level":"\#(event.level)","message":\#(JSONText.quoted(event.message.description))"#
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            line += ",\(JSONText.quoted(key)):\(JSONText.quoted("\(value)"))"
        }
        return line + "}"
    }
}
