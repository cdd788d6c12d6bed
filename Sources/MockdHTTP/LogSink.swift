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
import Synchronization

/// Where log lines go: a file descriptor (stderr), written in batches.
///
/// An access-log line per request written straight to stderr is a system call per request,
/// and a write to a file can wait on the disk. Lines are buffered; the flushing thread writes
/// them every 100 ms, or sooner when 64 KiB are waiting (it is woken). The thread that logs
/// writes only warnings and errors (at once) and, should the flusher fall 1 MiB behind, the
/// batch itself, so the buffer stays bounded.
package final class LogSink: Sendable {
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

    package init(fd: Int32 = 2) {
        self.fd = fd
        pending.withLock { $0.bytes.reserveCapacity(Self.wakeThreshold * 2) }
    }

    package func write(_ line: String, urgent: Bool) {
        writeLine(urgent: urgent) { $0.append(contentsOf: line.utf8) }
    }

    /// Appends one line built straight into the buffer.
    package func writeLine(urgent: Bool, _ build: (inout [UInt8]) -> Void) {
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

    package func flush() {
        let batch = pending.withLock { Self.take(&$0) }
        if !batch.isEmpty { writeAll(batch) }
    }

    /// Flushes every `interval` on a background thread for the life of the process.
    package func startPeriodicFlush(every interval: Duration = .milliseconds(100)) {
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
        _ = SystemCalls.writeAll(bytes, to: fd)  // stderr gone: nothing sensible left to do with a log line
    }
}
