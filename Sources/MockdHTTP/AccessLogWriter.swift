#if canImport(Glibc)
    package import Glibc
#elseif canImport(Darwin)
    package import Darwin
#endif
import Logging
import MockdCore

/// The access log's fast path: one line per request into the log sink, the same line
/// `MockdLogHandler` writes for it, without swift-log's event machinery and its cost on every
/// request. The executable gives it to the server (`HTTPServer`'s `accessLog`).
package struct AccessLogWriter: Sendable {
    let format: MockdLogHandler.Format
    let sink: LogSink

    package init(format: MockdLogHandler.Format, sink: LogSink) {
        self.format = format
        self.sink = sink
    }

    /// `time`: when the request was logged (`CLOCK_REALTIME`); read now when not given.
    package func write(_ record: borrowing AccessRecord, at time: timespec? = nil) {
        switch format {
        case .text:
            // Built outside the sink's lock, on the stack; the lock only covers the copy.
            LineBuilder.build(
                maximumLength: Timestamp.length + 2 + record.maximumLength,
                { line in
                    Timestamp.put(time, into: &line)
                    line.put(UInt8(ascii: " "))
                    record.put(into: &line)
                    line.put(UInt8(ascii: "\n"))
                }, then: { sink.writeLine($0, urgent: false) })
        case .json:
            sink.writeLine(urgent: false) { buffer in
                buffer.append(contentsOf: #"{"time":""#.utf8)
                Timestamp.append(time, to: &buffer)
                buffer.append(contentsOf: #"","level":"info","message":"request""#.utf8)
                buffer.append(contentsOf: record.jsonFields.utf8)
                buffer.append(UInt8(ascii: "}"))
            }
        }
    }

    /// One request's line from its parts, borrowed where they are (the request, the answer): a
    /// text line is built on the stack and nothing is retained. A record made first copied
    /// five strings and released them again (callgrind: ~400 instructions a request).
    package func writeLine(
        method: String, path: String, query: String, status: Int, source: String, repeatsStatus: Bool, durationMicroseconds: UInt64,
        scenario: String, session: String?, at time: timespec
    ) {
        guard case .text = format else {
            return write(
                AccessRecord(
                    method: method, path: path, status: status, source: source, repeatsStatus: repeatsStatus,
                    durationMicroseconds: durationMicroseconds, query: query, scenario: scenario, session: session),
                at: time)
        }
        let length = AccessRecord.maximumLength(
            method: method, path: path, query: query, source: source, scenario: scenario, session: session)
        LineBuilder.build(
            maximumLength: Timestamp.length + 2 + length,
            { line in
                Timestamp.put(time, into: &line)
                line.put(UInt8(ascii: " "))
                AccessRecord.put(
                    method: method, path: path, query: query, status: status, source: source, repeatsStatus: repeatsStatus,
                    durationMicroseconds: durationMicroseconds, scenario: scenario, session: session, into: &line)
                line.put(UInt8(ascii: "\n"))
            }, then: { sink.writeLine($0, urgent: false) })
    }
}
