#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdLock
import Synchronization

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
