import CMicroHTTPD
import MockdCore
import MockdSystem
import Synchronization

/// A response sent in pieces over time (`ResponseStream`): server-sent events or timed chunks.
///
/// libmicrohttpd asks the content reader for bytes whenever the socket has room. When the next
/// piece is not due, the reader suspends the connection (from inside the reader, as
/// libmicrohttpd allows) and returns 0; the server's parking-lot timer resumes it when the piece
/// is due. So no thread waits, and an idle stream costs nothing. The request is logged once,
/// when the stream ends (how many pieces went, how it ended, the time to the last byte).
final class StreamedAnswer: @unchecked Sendable {  // one libmicrohttpd thread at a time, as RequestState
    private let stream: ResponseStream
    /// Unowned: a stream ends before its server does (shutdown resumes and drains it).
    private unowned(unsafe) let server: HTTPServer
    private let state: RequestState
    private let connection: OpaquePointer
    private let request: MockRequest
    private let status: Int
    private let origin: Origin
    private let scenario: String
    /// The next piece to start.
    private var next = 0
    private var current: [UInt8] = []
    private var sent = 0
    /// When the next piece is due, once its delay has begun.
    private var due: ContinuousClock.Instant?
    /// When the stream began, and the sum of the delays so far: each piece is due at that
    /// sum after the start, so the time spent sending one does not push back all the next.
    private var start: ContinuousClock.Instant?
    private var planned = Duration.zero
    private var logged = false
    /// When the socket was last looked at for a client that left.
    private var looked: ContinuousClock.Instant?

    static let longestPark = Duration.seconds(1)

    init(
        _ stream: ResponseStream, server: HTTPServer, state: RequestState, connection: OpaquePointer, request: MockRequest,
        status: Int, origin: Origin, scenario: String
    ) {
        self.stream = stream
        self.server = server
        self.state = state
        self.connection = connection
        self.request = request
        self.status = status
        self.origin = origin
        self.scenario = scenario
    }

    /// libmicrohttpd's content reader: up to `max` bytes into `buffer`, 0 when suspended until
    /// the next piece is due, or the end (-1 clean, -2 cut).
    func fill(_ buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        while sent == current.count {
            guard next < stream.pieces.count else { return finish() }
            let piece = stream.pieces[next]
            let begun = start ?? .now
            start = begun
            if due == nil, let delay = piece.delay?.sample(), delay > .zero {
                planned += delay
                due = begun + planned
            }
            // Stopping, or closing this session's port: nothing may be suspended, the rest goes now.
            if let due, !server.lifecycle.isEnding, state.sessionPort?.lifecycle.isEnding != true {
                let now = ContinuousClock.now
                let left = now.duration(to: due)
                // libmicrohttpd does not watch a suspended connection; this is where a client
                // that left is noticed: the stream ends now. Looked at once a second at most: it
                // is a system call each time, and a stream may send many events a second.
                if left > .zero, looked.map({ $0.duration(to: now) >= Self.longestPark }) ?? true {
                    looked = now
                    if ConnectionSocket.peerHasClosed(cmhd_connection_fd(connection)) {
                        log(ending: "the client left")
                        return -2
                    }
                }
                // Resumed by the timer, the reader is asked again. At most a second at a time: a
                // suspended connection is not watched, so a client that left is seen within two.
                if left > .zero,
                    server.parking.park(state, connection: connection, .timer(min(left, Self.longestPark)))
                        == .parked
                {
                    return 0
                }
            }
            due = nil
            current = piece.bytes
            sent = 0
            next += 1
        }
        let count = min(max, current.count - sent)
        current.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + sent, byteCount: count)
        }
        sent += count
        return count
    }

    private func finish() -> Int {
        log(ending: stream.ending.rawValue)
        switch stream.ending {
        case .complete:
            return -1  // MHD_CONTENT_READER_END_OF_STREAM: the last chunk, and the connection is kept
        case .cut:
            // MHD_CONTENT_READER_END_WITH_ERROR: no end of the chunked body. libmicrohttpd 0.9.75
            // leaves a chunked response's socket open until the idle timeout, so the client is
            // told now: the connection's sending side is shut.
            HTTPServer.shutDownSending(connection)
            return -2
        case .reset:
            // A reset needs the close itself (with a zero linger): asked for within a second.
            HTTPServer.resetOnClose(connection)
            cmhd_set_connection_timeout(connection, 1)
            return -2
        }
    }

    /// The one journal entry and access line of a stream.
    func log(ending: String) {
        guard !logged else { return }
        logged = true
        server.log.record(
            request, status: status, origin: origin,
            label: "\(origin.label) (stream: \(next) of \(stream.defined) \(stream.unit), \(ending))",
            scenario: scenario, state: state)
    }

    /// libmicrohttpd is done with the response: a client that left before the end is logged now.
    deinit {
        log(ending: "the client left")
    }
}

extension HTTPServer {
    /// Queues a stream's response: its headers now, its pieces as they come due.
    func queueStream(
        _ stream: ResponseStream, built: BuiltResponse, scenario: String, extraHeaders: [HTTPHeader],
        for request: MockRequest, connection: OpaquePointer, state: RequestState
    ) -> MHD_Result {
        let answer = StreamedAnswer(
            stream, server: self, state: state, connection: connection, request: request,
            status: built.status, origin: built.origin, scenario: scenario)
        let context = Unmanaged.passRetained(answer).toOpaque()
        // Unknown size: chunked transfer encoding, each piece sent as it is read.
        guard let raw = MHD_create_response_from_callback(UInt64.max, 4096, readStream, context, releaseStream) else {
            Unmanaged<StreamedAnswer>.fromOpaque(context).release()
            return .NO
        }
        let response = MHDResponse(adopting: raw)
        MHDResponse.add(built.headers + extraHeaders, to: raw)
        _ = MHD_add_response_header(raw, "X-Mockd-Source", built.source)
        return withExtendedLifetime(response) { MHD_queue_response(connection, UInt32(built.status), raw) }
    }
}

private func readStream(_ context: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int) -> Int
{
    guard let context, let buffer else { return -2 }
    return Unmanaged<StreamedAnswer>.fromOpaque(context).takeUnretainedValue().fill(buffer, max: max)
}

private func releaseStream(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<StreamedAnswer>.fromOpaque(context).release()
}
