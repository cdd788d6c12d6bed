#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CMicroHTTPD
import Dispatch
import Logging
import MockdSystem
import MockdCore
import MockdLock
import Synchronization

/// One connection as the guard sees it. Updated by libmicrohttpd's thread for the connection
/// with atomics (no lock per request); the state only moves on with a compare-and-exchange, so
/// a head that completes just as the tick closes it is either served or closed, never both.
final class ConnectionRecord: Sendable {
    enum Phase: UInt8 {
        /// Accepted, or a request line seen on a keep-alive connection: a head is on its way.
        case awaitingHead
        /// The head is complete: a request is being read, answered or parked.
        case inRequest
        /// The head is complete and its body is arriving (its rate is watched).
        case receivingBody
        /// Keep-alive, waiting for the next request.
        case idle
        /// Being closed by the guard.
        case closing
    }

    let fd: Int32
    private let state = Atomic<UInt8>(Phase.awaitingHead.rawValue)
    /// When the current phase began (monotonic ns).
    let since: Atomic<UInt64>
    /// Body bytes received on this connection, ever (the handler adds; the tick reads).
    let bodyBytes = Atomic<UInt64>(0)
    /// The tick's window for the body rate: when it began, and `bodyBytes` then. Only the tick
    /// and the start of a body write them.
    let windowStart = Atomic<UInt64>(0)
    let windowBytes = Atomic<UInt64>(0)
    /// The current body's start (`bodyBytes` then) and its `Content-Length` (-1: chunked), so
    /// the guard's 408 names how far that body got, as the request's journal entry does.
    let bodyStartBytes = Atomic<UInt64>(0)
    let declaredBody = Atomic<Int>(-1)
    /// Why the guard closed the connection while a request was being read (`CloseReason`), for
    /// the request's completion to say.
    let closedFor = Atomic<UInt8>(CloseReason.none.rawValue)

    /// The tick saw the peer's end of stream while a head or body was arriving (only the tick uses it).
    let peerClosedSeen = Atomic<Bool>(false)

    enum CloseReason: UInt8 {
        case none
        /// The body came slower than `--min-body-rate`: the guard sent the 408.
        case slowBody
        /// The client had closed its side before the body was all in.
        case clientLeft
        /// The head took longer than `--head-timeout`: the guard sent the 408.
        case headTimeout
        /// Closed at `--max-connections` to make room, waiting for its head: the guard sent the 408.
        case evicted
    }

    init(fd: Int32, now: UInt64) {
        self.fd = fd
        self.since = Atomic(now)
    }

    var phase: Phase { Phase(rawValue: state.load(ordering: .acquiring))! }

    /// Moves from `old` to `new`; false when the phase was something else.
    @discardableResult
    func move(from old: Phase, to new: Phase, now: UInt64) -> Bool {
        guard state.compareExchange(expected: old.rawValue, desired: new.rawValue, ordering: .acquiringAndReleasing).exchanged else {
            return false
        }
        since.store(now, ordering: .relaxed)
        return true
    }
}

/// Keeps slow clients from locking others out, where libmicrohttpd 0.9.75 cannot: its idle
/// timeout restarts on every byte (a head dribbled a byte a second never ends), and at its
/// connection limit it stops accepting, so such clients fill every slot.
///
/// It knows each connection's socket and whether a request head is pending, since when.
/// A tick once a second closes heads older than `--head-timeout` and bodies slower than
/// `--min-body-rate` (each with a 408: nothing else is being written then), and at
/// `--max-connections` a new connection evicts the one waiting
/// longest for its head, else the longest-idle keep-alive one. Closing is `shutdown(2)` on
/// the socket under the table's lock: libmicrohttpd then reads end-of-stream and cleans up on
/// its own thread, and the CLOSED notification (which comes before libmicrohttpd closes the
/// descriptor) takes the entry out under the same lock, so a descriptor is never touched after
/// it could be reused.
final class ConnectionGuard: Sendable {
    /// Every open connection, by its record's identity. Changed only when one opens or closes.
    private let table = Lock<[ObjectIdentifier: ConnectionRecord]>([:])
    private let headTimeoutNanoseconds: UInt64
    private let headTimeoutSeconds: Int
    /// `--min-body-rate` in bytes a second (0: off), judged over windows of `bodyRateWindowSeconds`.
    private let minimumBodyRate: Int
    private let bodyRateWindowSeconds: Int
    private let logger: Logger
    let refusals = RateLimitedWarning()
    let evictions = RateLimitedWarning()
    let timeouts = RateLimitedWarning()
    let slowBodies = RateLimitedWarning()
    private let timer = Lock<(any DispatchSourceTimer)?>(nil)
    /// Connections libmicrohttpd has accepted and not yet closed (the accept policy weighs it).
    let openCount = Atomic<Int>(0)

    init(headTimeoutSeconds: Int, minimumBodyRate: Int = 0, bodyRateWindowSeconds: Int = 10, logger: Logger) {
        self.headTimeoutSeconds = headTimeoutSeconds
        self.headTimeoutNanoseconds = UInt64(headTimeoutSeconds) * 1_000_000_000
        self.minimumBodyRate = minimumBodyRate
        self.bodyRateWindowSeconds = max(1, bodyRateWindowSeconds)
        self.logger = logger
    }

    // MARK: - Events from libmicrohttpd's callbacks

    /// A connection was accepted: its record goes into libmicrohttpd's socket context.
    func opened(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, now: UInt64) {
        let fd = cmhd_connection_fd(connection)
        guard fd >= 0, let socketContext else { return }
        let record = ConnectionRecord(fd: fd, now: now)
        socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        table.withLock { $0[ObjectIdentifier(record)] = record }
    }

    /// Before libmicrohttpd closes the descriptor: after this the guard never touches it.
    func closed(socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let socketContext, let raw = socketContext.pointee else { return }
        let record = Unmanaged<ConnectionRecord>.fromOpaque(raw).takeRetainedValue()
        socketContext.pointee = nil
        _ = table.withLock { $0.removeValue(forKey: ObjectIdentifier(record)) }
    }

    static func record(of connection: OpaquePointer) -> ConnectionRecord? {
        cmhd_connection_socket_context(connection).map { Unmanaged<ConnectionRecord>.fromOpaque($0).takeUnretainedValue() }
    }

    /// A request line arrived on a keep-alive connection (on a fresh one the head has been due since the accept).
    func requestLine(_ connection: OpaquePointer, now: UInt64) {
        Self.record(of: connection)?.move(from: .idle, to: .awaitingHead, now: now)
    }

    /// The head is complete. False when the guard is closing the connection (too late).
    func headComplete(_ connection: OpaquePointer, now: UInt64) -> Bool {
        guard let record = Self.record(of: connection) else { return true }
        return record.move(from: .awaitingHead, to: .inRequest, now: now) || record.phase == .inRequest
    }

    /// The request has a body, which is arriving: its rate is watched from now (with a minimum
    /// rate), and whether its client is still there. False when the connection has no record, so
    /// the handler need not say when the body is in.
    func bodyStarted(_ connection: OpaquePointer, declaredLength: Int?, now: UInt64) -> Bool {
        guard let record = Self.record(of: connection) else { return false }
        let start = record.bodyBytes.load(ordering: .relaxed)
        record.windowStart.store(now, ordering: .relaxed)
        record.windowBytes.store(start, ordering: .relaxed)
        record.bodyStartBytes.store(start, ordering: .relaxed)
        record.declaredBody.store(declaredLength ?? -1, ordering: .relaxed)
        return record.move(from: .inRequest, to: .receivingBody, now: now)
    }

    /// Body bytes arrived.
    func bodyReceived(_ connection: OpaquePointer, bytes: Int) {
        Self.record(of: connection)?.bodyBytes.add(UInt64(bytes), ordering: .relaxed)
    }

    /// The whole body is in: false when the guard is closing the connection for its slowness.
    func bodyDone(_ connection: OpaquePointer, now: UInt64) -> Bool {
        guard let record = Self.record(of: connection) else { return true }
        return record.move(from: .receivingBody, to: .inRequest, now: now) || record.phase == .inRequest
    }

    /// Why the guard closed this connection while a request was being read, in the core's
    /// words (nil: it did not).
    func closeCause(_ connection: OpaquePointer) -> UnfinishedRequest.Cause? {
        guard let record = Self.record(of: connection),
            let reason = ConnectionRecord.CloseReason(rawValue: record.closedFor.load(ordering: .acquiring)), reason != .none
        else { return nil }
        return cause(for: reason)
    }

    /// The one place a close reason becomes the core's cause, for the guard's own 408 and for
    /// the request's completion alike (the limits it names are the guard's).
    private func cause(for reason: ConnectionRecord.CloseReason) -> UnfinishedRequest.Cause {
        switch reason {
        case .none: .connectionError  // not a close of the guard's: `closeCause` never asks
        case .slowBody: .slowBody(bytesPerSecond: minimumBodyRate)
        case .clientLeft: .clientLeft
        case .headTimeout: .headTimeout(seconds: headTimeoutSeconds)
        case .evicted: .evicted
        }
    }

    func requestDone(_ connection: OpaquePointer, now: UInt64) {
        guard let record = Self.record(of: connection) else { return }
        // Answered before its body was all in (a 413): the same as done.
        if !record.move(from: .inRequest, to: .idle, now: now) { record.move(from: .receivingBody, to: .idle, now: now) }
    }

    // MARK: - Decisions

    /// At the connection limit: closes the connection waiting longest for its head, else the
    /// longest-idle keep-alive one. False when every connection is busy with a request.
    func evictOne(now: UInt64) -> Bool {
        table.withLock { table -> Bool in
            for phase in [ConnectionRecord.Phase.awaitingHead, .idle] {
                let candidates = table.values.filter { $0.phase == phase }.sorted {
                    $0.since.load(ordering: .relaxed) < $1.since.load(ordering: .relaxed)
                }
                for record in candidates where record.move(from: phase, to: .closing, now: now) {
                    if phase == .awaitingHead {
                        closeHead(record, for: .evicted)
                    } else {
                        ConnectionSocket.sendLastAndShut(record.fd, [])
                    }
                    return true
                }
            }
            return false
        }
    }

    /// Closes every head older than the head timeout, and every head whose client has gone.
    /// Runs once a second.
    func sweep(now: UInt64) {
        let count = table.withLock { table -> Int in
            var count = 0
            for record in table.values where record.phase == .awaitingHead {
                if now &- record.since.load(ordering: .relaxed) >= headTimeoutNanoseconds {
                    guard record.move(from: .awaitingHead, to: .closing, now: now) else { continue }
                    closeHead(record, for: .headTimeout)
                    count += 1
                } else {
                    closeIfClientLeft(record, from: .awaitingHead, now: now)
                }
            }
            return count
        }
        if count > 0, let fields = timeouts.record(now: now) {
            logger.info(
                "closed connections whose request head took too long (--head-timeout)",
                metadata: fields.merging(["mockd.closed": "\(count)", "mockd.headTimeoutSeconds": "\(headTimeoutSeconds)"]) { $1 })
        }
        let slow = closeSlowBodies(now: now)
        if slow > 0, let fields = slowBodies.record(now: now) {
            logger.info(
                "closed connections whose request body came too slowly (--min-body-rate)",
                metadata: fields.merging(["mockd.closed": "\(slow)", "mockd.minBytesPerSecond": "\(minimumBodyRate)"]) { $1 })
        }
        let summaries: [(RateLimitedWarning, Logger.Message)] = [
            (refusals, "more connections refused (--max-connections)"),
            (evictions, "more connections closed to make room (--max-connections)"),
            (timeouts, "more connections closed whose request head took too long (--head-timeout)"),
            (slowBodies, "more connections closed whose request body came too slowly (--min-body-rate)"),
        ]
        for (limited, message) in summaries {
            if let fields = limited.flush(now: now) { logger.info(message, metadata: fields) }
        }
    }

    /// Closes every body that, over the last window, came slower than `--min-body-rate`; starts
    /// the next window for the others. Returns how many it closed.
    ///
    /// A body whose client has closed its side is closed too (`closeIfClientLeft`).
    private func closeSlowBodies(now: UInt64) -> Int {
        let window = UInt64(bodyRateWindowSeconds) * 1_000_000_000
        return table.withLock { table -> Int in
            var count = 0
            for record in table.values where record.phase == .receivingBody {
                if closeIfClientLeft(record, from: .receivingBody, now: now) { continue }
                guard minimumBodyRate > 0, now &- record.windowStart.load(ordering: .relaxed) >= window else { continue }
                let received = record.bodyBytes.load(ordering: .relaxed) &- record.windowBytes.load(ordering: .relaxed)
                if received >= UInt64(minimumBodyRate * bodyRateWindowSeconds) {
                    record.windowStart.store(now, ordering: .relaxed)
                    record.windowBytes.store(record.bodyBytes.load(ordering: .relaxed), ordering: .relaxed)
                } else if record.move(from: .receivingBody, to: .closing, now: now) {
                    // Before the socket is shut: the request's completion, which the shutdown
                    // brings, reads it to say why the request ended.
                    record.closedFor.store(ConnectionRecord.CloseReason.slowBody.rawValue, ordering: .releasing)
                    let declared = record.declaredBody.load(ordering: .relaxed)
                    let unfinished = UnfinishedRequest(
                        cause(for: .slowBody),
                        received: Int(record.bodyBytes.load(ordering: .relaxed) &- record.bodyStartBytes.load(ordering: .relaxed)),
                        declared: declared < 0 ? nil : declared)
                    close(
                        record, timeout: .slowBody(bytesPerSecond: minimumBodyRate, windowSeconds: bodyRateWindowSeconds),
                        origin: .unfinished(unfinished))
                    count += 1
                }
            }
            return count
        }
    }

    /// Under the table's lock. A head or body whose client has closed its side is closed without
    /// an answer: libmicrohttpd 0.9.75 does not see that end of stream while it waits for the
    /// rest (it read the last bytes and the end together, and waits for the socket to say
    /// more), so the request would otherwise end only at a timeout, as if the client were slow.
    /// True when the client has closed its side (closed now, or to be on the next tick).
    @discardableResult
    private func closeIfClientLeft(_ record: ConnectionRecord, from phase: ConnectionRecord.Phase, now: UInt64) -> Bool {
        guard ConnectionSocket.peerHasClosed(record.fd) else { return false }
        // Seen on two ticks in a row: a head or body whose last bytes and end came together is
        // handed to the handler within the tick, and must not be taken for a left client.
        guard record.peerClosedSeen.exchange(true, ordering: .relaxed) else { return true }
        guard record.move(from: phase, to: .closing, now: now) else { return true }
        record.closedFor.store(ConnectionRecord.CloseReason.clientLeft.rawValue, ordering: .releasing)
        ConnectionSocket.sendLastAndShut(record.fd, [])
        return true
    }

    /// Under the table's lock (the descriptor is still libmicrohttpd's and open). Nothing is
    /// being written on a connection whose head is incomplete, so a 408 fits; its source says
    /// what the request's journal entry will say (`reason`: `.headTimeout` or `.evicted`).
    private func closeHead(_ record: ConnectionRecord, for reason: ConnectionRecord.CloseReason) {
        // Before the socket is shut: the request's completion, which the shutdown brings, reads it.
        record.closedFor.store(reason.rawValue, ordering: .releasing)
        let timeout = reason == .evicted ? ErrorAnswer.evictedForRoom : .headTimeout(seconds: headTimeoutSeconds)
        close(record, timeout: timeout, origin: .unfinished(.head(cause(for: reason))))
    }

    /// `timeout`: the 408 to send, or nil to close without an answer. Written out here: the
    /// connection is closed under libmicrohttpd, which will not send it.
    private func close(_ record: ConnectionRecord, timeout: ErrorAnswer?, origin: Origin) {
        ConnectionSocket.sendLastAndShut(record.fd, timeout.map { LastAnswer.timeout($0, origin: origin) } ?? [])
    }

    // MARK: - The tick

    func start() {
        timer.withLock { timer in
            let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "mockd.connections"))
            source.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1), leeway: .milliseconds(100))
            source.setEventHandler { [self] in sweep(now: RequestState.monotonicNanoseconds()) }
            source.resume()
            timer = source
        }
    }

    func stop() {
        timer.withLock { timer in
            timer?.cancel()
            timer = nil
        }
    }
}
