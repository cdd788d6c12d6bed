#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging
import MockdCore
import MockdSystem
import MockdLock

/// Where log lines go: a file descriptor (stderr), written in batches.
///
/// An access-log line per request written straight to stderr is a system call per request,
/// and a write to a file can wait on the disk. Lines are buffered; the flushing thread writes
/// them every 100 ms, or sooner when 64 KiB are waiting (it is woken). The thread that logs
/// writes only warnings and errors (at once) and, should the flusher fall 1 MiB behind, the
/// batch itself, so the buffer stays bounded. At 80,000 requests a second that is ~6 MB/s of
/// access lines: written by the request threads in 32 KiB batches before, a write per ~400
/// requests.
public final class LogSink: Sendable {
    private let fd: Int32
    private let pending = Lock<Pending>(Pending())
    /// Signalled when enough is waiting for the flusher to write it before its next tick.
    private let wake = DispatchSemaphore(value: 0)
    private static let wakeThreshold = 64 * 1024
    private static let writeThreshold = 1024 * 1024

    private struct Pending {
        var bytes: [UInt8] = []
        /// The flusher was woken for what is waiting (once per batch).
        var woken = false
    }

    public init(fd: Int32 = 2) {
        self.fd = fd
        pending.withLock { $0.bytes.reserveCapacity(Self.wakeThreshold * 2) }
    }

    public func write(_ line: String, urgent: Bool) {
        writeLine(urgent: urgent) { $0.append(contentsOf: line.utf8) }
    }

    /// Appends one line built straight into the buffer.
    public func writeLine(urgent: Bool, _ build: (inout [UInt8]) -> Void) {
        append(urgent: urgent) { bytes in
            build(&bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    /// Appends one line already built (with its newline); the lock is held only for the copy.
    func writeLine(_ line: UnsafeBufferPointer<UInt8>, urgent: Bool) {
        append(urgent: urgent) { $0.append(contentsOf: line) }
    }

    private func append(urgent: Bool, _ add: (inout [UInt8]) -> Void) {
        let (batch, wakeFlusher): ([UInt8]?, Bool) = pending.withLock { pending in
            add(&pending.bytes)
            if urgent || pending.bytes.count >= Self.writeThreshold { return (Self.take(&pending), false) }
            guard pending.bytes.count >= Self.wakeThreshold, !pending.woken else { return (nil, false) }
            pending.woken = true
            return (nil, true)
        }
        if let batch { writeAll(batch) }
        if wakeFlusher { wake.signal() }
    }

    private static func take(_ pending: inout Pending) -> [UInt8] {
        defer {
            pending.bytes.removeAll(keepingCapacity: true)
            pending.woken = false
        }
        return pending.bytes
    }

    public func flush() {
        let batch = pending.withLock { Self.take(&$0) }
        if !batch.isEmpty { writeAll(batch) }
    }

    /// Flushes every `interval` on a background thread for the life of the process.
    public func startPeriodicFlush(every interval: Duration = .milliseconds(100)) {
        let nanoseconds = Int(interval.components.attoseconds / 1_000_000_000) + Int(interval.components.seconds) * 1_000_000_000
        // Never joined: it flushes until the process ends.
        let started = JoinableThread.spawn { [self] in
            while true {
                _ = wake.wait(timeout: .now() + .nanoseconds(nanoseconds))  // the tick, or woken by a full buffer
                flush()
            }
        }
        if case .success(let thread) = started { thread.detach() }
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = SystemCalls.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // stderr gone: nothing sensible left to do with a log line
                }
                offset += written
            }
        }
    }
}

/// mockd's log handler: one line per event, as text or JSON, with the access-log fields
/// (`method`, `path`, `status`, `source`, `durationMs`) laid out for reading.
public struct MockdLogHandler: LogHandler {
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let format: Format
    let sink: LogSink

    public init(label: String, format: Format, sink: LogSink, level: Logger.Level = .info) {
        self.label = label
        self.format = format
        self.sink = sink
        self.logLevel = level
    }

    /// Writes access-log lines exactly as `log(event:)` would, without building a `LogEvent`;
    /// the server uses it directly when its logger's handler is this one.
    public var accessWriter: AccessLogWriter { AccessLogWriter(format: format, sink: sink) }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
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

/// The access log's fast path: one line per request into the log sink.
public struct AccessLogWriter: Sendable {
    let format: MockdLogHandler.Format
    let sink: LogSink

    /// `time`: when the request was logged (`CLOCK_REALTIME`); read now when not given.
    public func write(_ record: borrowing AccessRecord, at time: timespec? = nil) {
        switch format {
        case .text:
            // Built outside the sink's lock, on the stack; the lock only covers the copy.
            LineBuilder.build(maximumLength: Timestamp.length + 2 + record.maximumLength, { line in
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
}

/// The fields of one access-log line.
public struct AccessRecord: CustomStringConvertible, Sendable {
    public static let metadataKey = "mockd.request"
    public var method: String
    public var path: String
    public var status: Int
    public var source: String
    public var durationMicroseconds: UInt64
    /// The raw query, without `?`; empty when there was none.
    public var query: String = ""
    /// The scenario the request was answered in; `default` (or empty) is not shown.
    public var scenario: String = ""
    /// `X-Mock-Session`, when sent.
    public var session: String?

    public init(method: String, path: String, status: Int, source: String, durationMicroseconds: UInt64,
                query: String = "", scenario: String = "", session: String? = nil) {
        self.method = method
        self.path = path
        self.status = status
        self.source = source
        self.durationMicroseconds = durationMicroseconds
        self.query = query
        self.scenario = scenario
        self.session = session
    }

    /// Shown only when it says something: not the default scenario.
    var shownScenario: String? { scenario.isEmpty || scenario == "default" ? nil : scenario }
    /// The 404 report's and the 501's source is their status: said once, not `404 404`.
    var sourceRepeatsStatus: Bool { source.utf8.count == 3 && source == String(status) }

    /// `GET /api/users?page=2 200 file users/mock_api_users_get.json 0.080ms scenario=empty session=sim-3`
    public var description: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same as `description`, appended as bytes.
    func append(to buffer: inout [UInt8]) {
        LineBuilder.build(maximumLength: maximumLength, { put(into: &$0) }, then: { buffer.append(contentsOf: $0) })
    }

    /// At least the length of the line `put(into:)` writes: the fields' bytes and room for the
    /// separators, labels and numbers.
    var maximumLength: Int {
        method.utf8.count + path.utf8.count + query.utf8.count + source.utf8.count
            + scenario.utf8.count + (session?.utf8.count ?? 0) + 96
    }

    func put(into line: inout LineBuilder) {
        line.put(method)
        line.put(UInt8(ascii: " "))
        line.put(path)
        if !query.isEmpty {
            line.put(UInt8(ascii: "?"))
            line.put(query)
        }
        line.put(UInt8(ascii: " "))
        Digits.put(UInt64(max(0, status)), into: &line)
        line.put(UInt8(ascii: " "))
        if !sourceRepeatsStatus {
            line.put(source)
            line.put(UInt8(ascii: " "))
        }
        Digits.putMilliseconds(durationMicroseconds, into: &line)
        line.put("ms" as StaticString)
        if let shownScenario {
            line.put(" scenario=" as StaticString)
            line.put(shownScenario)
        }
        if let session {
            line.put(" session=" as StaticString)
            line.put(session)
        }
    }

    /// `,"method":"GET","path":…,"durationMs":0.08`
    var jsonFields: String {
        var fields = ",\"method\":\(JSONText.quoted(method)),\"path\":\(JSONText.quoted(path))"
        if !query.isEmpty { fields += ",\"query\":\(JSONText.quoted(query))" }
        fields += ",\"status\":\(status),\"source\":\(JSONText.quoted(source)),\"durationMs\":\(Digits.milliseconds(durationMicroseconds))"
        if let shownScenario { fields += ",\"scenario\":\(JSONText.quoted(shownScenario))" }
        if let session { fields += ",\"session\":\(JSONText.quoted(session))" }
        return fields
    }
}

/// Decimal digits appended as bytes.
enum Digits {
    /// `80` µs → `0.080`
    static func putMilliseconds(_ micros: UInt64, into line: inout LineBuilder) {
        put(micros / 1000, into: &line)
        line.put(UInt8(ascii: "."))
        put(micros % 1000, into: &line, width: 3)
    }

    static func milliseconds(_ micros: UInt64) -> String {
        LineBuilder.build(maximumLength: 32, { putMilliseconds(micros, into: &$0) }, then: { String(decoding: $0, as: UTF8.self) })
    }

    static func put(_ value: UInt64, into line: inout LineBuilder, width: Int = 1) {
        // Most values are small: count the digits, then write them from the left.
        var count = 1
        var divisor: UInt64 = 1  // 10^(count - 1): the place of the first digit
        while count < 20 && value / 10 >= divisor { count += 1; divisor &*= 10 }
        var padding = width - count
        while padding > 0 { line.put(UInt8(ascii: "0")); padding -= 1 }
        var rest = value
        while divisor > 0 {
            line.put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}

/// UTC timestamps with milliseconds; the formatted second is cached, as most lines share it.
enum Timestamp {
    /// The formatted second (`2026-11-22T11:30:00`, 19 bytes) of the last line, and which second it was.
    private static let cache = Lock<(second: Int, bytes: [UInt8])>((-1, []))
    /// Bytes `put(into:)` writes.
    static let length = 24

    /// `2026-11-22T11:30:00.123Z` appended as bytes.
    static func append(_ time: timespec? = nil, to buffer: inout [UInt8]) {
        LineBuilder.build(maximumLength: length, { put(time, into: &$0) }, then: { buffer.append(contentsOf: $0) })
    }

    /// `given`: a `realtime()` reading; the clock is read when nil.
    static func put(_ given: timespec? = nil, into line: inout LineBuilder) {
        let time = given ?? realtime()
        let second = time.tv_sec
        cache.withLock { cache in
            if cache.second != second { cache = (second, formatSecond(second)) }
            cache.bytes.withUnsafeBufferPointer { line.put($0) }
        }
        line.put(UInt8(ascii: "."))
        Digits.put(UInt64(time.tv_nsec / 1_000_000), into: &line, width: 3)
        line.put(UInt8(ascii: "Z"))
    }

    /// The wall clock (`CLOCK_REALTIME`): log lines' and journal entries' time.
    static func realtime() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }

    static func now() -> String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func formatSecond(_ second: Int) -> [UInt8] {
        var seconds = second
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &parts)
        return buffer.prefix(count).map { UInt8(bitPattern: $0) }
    }
}
