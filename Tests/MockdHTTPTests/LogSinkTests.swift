import Foundation
@testable import MockdHTTP
import Testing
import TestSupport

/// The log sink alone: the thread that logs does not write access lines to the file (the
/// flusher does), warnings are written at once, and the flusher is woken by a full buffer
/// rather than waiting for its tick.
struct LogSinkTests {
    /// 100 KiB of access lines: past the point where the flusher is woken, below the point where
    /// the caller writes itself.
    static func fill(_ sink: LogSink) {
        let line = Array(repeating: UInt8(ascii: "x"), count: 99) + [UInt8(ascii: "\n")]
        line.withUnsafeBufferPointer { bytes in
            for _ in 0..<1024 { sink.writeLine(bytes, urgent: false) }
        }
    }

    static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
    }

    @Test func accessLinesAreLeftToTheFlusher_WarningsAreWrittenAtOnce() throws {
        try withTemporaryFolder { folder in
            let path = folder.child("log")
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try #require(fd >= 0)
            defer { close(fd) }
            let sink = LogSink(fd: fd)  // no flusher started
            Self.fill(sink)
            #expect(Self.size(path) == 0, "the logging thread wrote access lines itself")
            sink.write("a warning", urgent: true)
            #expect(Self.size(path) == 100 * 1024 + "a warning\n".utf8.count)
        }
    }

    @Test func aFullBufferWakesTheFlusherBeforeItsTick() throws {
        try withTemporaryFolder { folder in
            let path = folder.child("log")
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try #require(fd >= 0)
            // Left open: the flusher runs for the life of the process (this sink's, here the test run's).
            let sink = LogSink(fd: fd)
            sink.startPeriodicFlush(every: .seconds(3600))
            Self.fill(sink)
            let deadline = Deadline(eventDeadline)
            // What was waiting when the flusher woke (64 KiB or more) is written; lines added after
            // that, below the threshold again, wait for a tick, as they should.
            while Self.size(path) < 64 * 1024, !deadline.hasPassed { usleep(10_000) }
            #expect(Self.size(path) >= 64 * 1024, "nothing written before the hour's tick")
        }
    }
}
