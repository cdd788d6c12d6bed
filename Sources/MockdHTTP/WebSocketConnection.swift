// Not in the static build, which has no wslay to link (Package.swift).
#if !MOCKD_NO_WEBSOCKET
    import CMicroHTTPD
    import CWslay
    import Dispatch
    import MockdCore
    import MockdSystem
    import Synchronization

    /// What a WebSocket connection needs from its server: the timer, the other connections of its
    /// session (for a broadcast), and where to say that it ended.
    struct WebSocketHooks: Sendable {
        /// Runs the body after the delay, on the timer thread (`ParkingLot.after`): no thread waits.
        let after: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void
        /// Sends to every open connection of the session on the path.
        let broadcast: @Sendable (_ from: WebSocketConnection, _ message: WebSocketPayload) -> Void
        /// The connection has ended (how, in words); called once.
        let ended: @Sendable (_ connection: WebSocketConnection, _ how: String) -> Void
        /// Journals a message (`outgoing`: mockd sent it).
        let journal: @Sendable (_ connection: WebSocketConnection, _ message: WebSocketPayload, _ outgoing: Bool) -> Void
        /// `--max-ws-message-bytes`: a longer message from the app is closed with 1009.
        let maxMessageBytes: Int
        /// `--ws-ping-interval`: mockd pings this often; nil: never.
        let pingInterval: Duration?
        /// `--record`: a relayed conversation, written down when it ends; nil: not recording.
        let record: (@Sendable (_ connection: WebSocketConnection, _ transcript: WebSocketTranscript) -> Void)?
    }

    /// One upgraded connection. wslay frames both ways (masking, fragments, control frames, the
    /// close handshake); the conversation, the core's, decides what is sent; this class carries it
    /// out. Its state is touched only on its own serial queue, which a dispatch source on the socket
    /// and the timer wake: an idle connection holds no thread.
    final class WebSocketConnection: @unchecked Sendable {
        let id: Int
        let session: String?
        let path: String
        /// When it opened, as the connection list shows it.
        let opened: String
        /// Messages each way, read by the connection list from any thread.
        let messagesIn = Atomic<Int>(0)
        let messagesOut = Atomic<Int>(0)

        private let fd: Int32
        private let handle: OpaquePointer
        private let hooks: WebSocketHooks
        let queue: DispatchQueue

        // Below: only on `queue`.
        private var context: OpaquePointer?
        /// The script that answers the app, or nil when the upstream does (`upstreamLeg`).
        private var conversation: WebSocketConversation?
        /// A relayed connection's upstream side (`--proxy`).
        private var upstreamLeg: WebSocketUpstreamLeg?
        private let upstream: (any ByteStream)?
        /// A relayed conversation as it goes, when recording.
        private var transcript: WebSocketTranscript?
        private var pendingInput: ArraySlice<UInt8>
        private let watch: SocketWatch
        private var stalled = false
        private var finished = false
        /// mockd started the close handshake (a rule, the route's ending, an admin close, SIGTERM).
        private var closedByMockd = false
        /// A close mockd started while messages before it were still queued.
        private var pendingClose: WebSocketClose?
        /// Why reading stopped, when the socket says (the client left, a read failed).
        private var readEnd: String?

        init(
            id: Int, upgrade: WebSocketUpgrade, upstream: (any ByteStream)?, fd: Int32, handle: OpaquePointer, extra: [UInt8],
            opened: String, hooks: WebSocketHooks, target: DispatchQueue
        ) {
            self.id = id
            self.session = upgrade.session
            self.path = upgrade.path
            self.opened = opened
            self.fd = fd
            self.handle = handle
            self.hooks = hooks
            switch upgrade.peer {
            case .conversation(let conversation): self.conversation = conversation
            case .upstream: self.conversation = nil
            }
            self.upstream = upstream
            if upstream != nil, hooks.record != nil {
                let chosen = upgrade.head.headers.first(named: "Sec-WebSocket-Protocol")
                transcript = WebSocketTranscript(subprotocol: chosen, openedNanoseconds: RequestState.monotonicNanoseconds())
            }
            self.pendingInput = extra[...]
            self.queue = DispatchQueue(label: "mockd.websocket", target: target)
            self.watch = SocketWatch(fd: fd, queue: queue)
        }

        /// Sets up framing and the socket's source, then starts the conversation's timelines.
        func start() {
            queue.async { [self] in
                var callbacks = Self.callbacks
                let user = Unmanaged.passUnretained(self).toOpaque()
                guard wslay_event_context_server_init(&context, &callbacks, user) == 0, let context else {
                    return finish("out of memory")
                }
                wslay_event_config_set_max_recv_msg_length(context, UInt64(hooks.maxMessageBytes))
                ConnectionSocket.sendAtOnce(fd)
                watch.startReading { [self] in readable() }
                // The open's messages first, then what the client sent along with its upgrade.
                if conversation != nil {
                    for timeline in conversation!.opened() { perform(timeline[...]) }
                } else if let upstream {
                    relay(to: upstream)
                }
                if !pendingInput.isEmpty { readable() }
                flush()
                if let interval = hooks.pingInterval { schedulePing(every: interval) }
            }
        }

        /// A message from outside the conversation: a test's push, another connection's broadcast.
        func push(_ message: WebSocketPayload) {
            queue.async { [self] in
                guard !finished, !stalled else { return }
                enqueue(message)
                flush()
            }
        }

        /// Starts the close handshake (an admin close, SIGTERM, a session port closing).
        func close(code: UInt16, reason: String) {
            queue.async { [self] in
                guard !finished else { return }
                if stalled { return finish("closed by mockd \(code) while stalled") }
                startClose(WebSocketClose(code: code, reason: reason))
                flush()
            }
        }

        // MARK: - on the queue

        private func readable() {
            guard let context, !finished, !stalled else { return }
            if wslay_event_recv(context) != 0 { return finish(readEnd ?? "read failed") }
            flush()
        }

        private func flush() {
            guard let context, !finished, !stalled else { return }
            if wslay_event_send(context) != 0 { return finish("write failed") }
            if let close = pendingClose, wslay_event_want_write(context) == 0 {
                pendingClose = nil
                queueClose(close)
                if wslay_event_send(context) != 0 { return finish("write failed") }
            }
            if wslay_event_want_write(context) != 0 {
                watch.wantWritable { [self] in flush() }
            } else {
                watch.writeIdle()
            }
            if wslay_event_want_read(context) == 0 && wslay_event_want_write(context) == 0 && pendingClose == nil {
                finish(closing())
            } else if readEnd != nil {
                finish(readEnd!)
            }
        }

        /// The upstream answers: what it sends goes to the app, what the app sends goes to it, and
        /// either side's close is passed on.
        private func relay(to upstream: any ByteStream) {
            let events = WebSocketUpstreamLeg.Events(
                message: { [self] message in
                    enqueue(message)
                    flush()
                },
                closing: { [self] close in
                    startClose(close)
                    flush()
                },
                ended: { [self] how in
                    // After a close handshake the app's side ends by its own; else it is dropped, as
                    // the upstream dropped mockd.
                    if !closedByMockd { finish("the upstream's side ended: \(how)") }
                })
            let leg = WebSocketUpstreamLeg(stream: upstream, queue: queue, maxMessageBytes: hooks.maxMessageBytes, events: events)
            upstreamLeg = leg
            leg.start()
        }

        /// A ping now and then, until the connection ends: the app's pong is read like any frame.
        private func schedulePing(every interval: Duration) {
            hooks.after(interval) { [self] in
                queue.async { [self] in
                    guard let context, !finished, !stalled, wslay_event_get_close_sent(context) == 0 else { return }
                    var ping = wslay_event_msg(opcode: 0x9, msg: nil, msg_length: 0)
                    _ = wslay_event_queue_msg(context, &ping)
                    flush()
                    schedulePing(every: interval)
                }
            }
        }

        /// Carries out a timeline: `wait` holds the rest on the timer.
        private func perform(_ actions: ArraySlice<WebSocketAction>) {
            var rest = actions
            while let action = rest.popFirst() {
                guard !finished, !stalled else { return }
                switch action {
                case .wait(let delay):
                    let remaining = rest
                    hooks.after(delay) { [self] in
                        queue.async { [self] in
                            perform(remaining)
                            flush()
                        }
                    }
                    return
                case .send(let message):
                    enqueue(message)
                case .broadcast(let message):
                    hooks.broadcast(self, message)
                case .close(let close):
                    startClose(close)
                case .fault(let kind):
                    return fault(kind)
                case .onlyWhile(let key, let last):
                    guard conversation?.holds(key, last: last) == true else { return }
                }
            }
        }

        private func enqueue(_ message: WebSocketPayload) {
            guard let context, !closedByMockd, wslay_event_get_close_sent(context) == 0 else { return }
            let (bytes, binary) = message.bytes
            let opcode: UInt8 = binary ? 0x2 : 0x1
            // wslay copies the payload.
            let queued = bytes.withUnsafeBufferPointer { buffer in
                var message = wslay_event_msg(opcode: opcode, msg: buffer.baseAddress, msg_length: buffer.count)
                return wslay_event_queue_msg(context, &message)
            }
            if queued == 0 {
                messagesOut.add(1, ordering: .relaxed)
                hooks.journal(self, message, true)
                transcript?.append(.init(fromApp: false, message: message, nanoseconds: RequestState.monotonicNanoseconds()))
            }
        }

        private func startClose(_ close: WebSocketClose) {
            guard let context, !closedByMockd, wslay_event_get_close_sent(context) == 0, wslay_event_get_close_received(context) == 0
            else { return }
            closedByMockd = true
            upstreamLeg?.close(close)
            // wslay sends a queued control frame ahead of queued messages, and no message after a
            // close: the close waits until the replies before it are written (`flush`).
            if wslay_event_want_write(context) != 0 {
                pendingClose = close
            } else {
                queueClose(close)
            }
            // A client that never answers the close is let go after a second.
            hooks.after(.seconds(1)) { [self] in
                queue.async { [self] in finish("closed by mockd \(close.code); the client did not answer the close") }
            }
        }

        private func queueClose(_ close: WebSocketClose) {
            guard let context else { return }
            _ = Array(close.reason.utf8).withUnsafeBufferPointer { reason in
                wslay_event_queue_close(context, close.code, reason.baseAddress, reason.count)
            }
        }

        private func fault(_ kind: WebSocketFault.Kind) {
            // What was queued before the fault goes out first (as far as the socket takes it now).
            if let context, !finished, !stalled { _ = wslay_event_send(context) }
            switch kind {
            case .drop:
                finish("fault drop")
            case .reset:
                ConnectionSocket.resetOnClose(fd)
                finish("fault reset")
            case .stall:
                // Nothing more is read or sent, pings included; the connection stays until the
                // client gives up (and mockd sees it at its next read) or mockd closes it.
                stalled = true
                watch.pauseReading()
            }
        }

        /// How a close handshake ended, in words, from the codes each side sent.
        private func closing() -> String {
            guard let context else { return "closed" }
            let sent = wslay_event_get_status_code_sent(context)
            // 1006 when no close came (wslay stops reading once it closes for a protocol error).
            let received = wslay_event_get_close_received(context) != 0 ? wslay_event_get_status_code_received(context) : 0
            let answer = received == 0 ? "none" : String(received)
            if closedByMockd { return "closed by mockd \(sent), the client answered \(answer)" }
            if received != 0 { return "closed by the client \(received)" }
            // wslay closed it: the client broke the protocol (1002) or sent too much (1009).
            switch sent {
            case 1002: return "closed by mockd 1002: the client broke the WebSocket protocol"
            case 1009: return "closed by mockd 1009: a message over --max-ws-message-bytes"
            default: return "closed by mockd \(sent)"
            }
        }

        /// Ends the connection once: its sources go, then the socket goes back to libmicrohttpd,
        /// which closes it.
        private func finish(_ how: String) {
            guard !finished else { return }
            finished = true
            hooks.ended(self, how)
            upstreamLeg?.stop()
            if let transcript, let record = hooks.record { record(self, transcript) }
            watch.cancel { [self] in
                if let context { wslay_event_context_free(context) }
                context = nil
                _ = cmhd_upgrade_close(handle)
            }
        }

        // MARK: - wslay's callbacks (on the queue: wslay calls them from recv and send)

        fileprivate func receive(_ context: OpaquePointer?, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
            if !pendingInput.isEmpty {
                let taken = min(count, pendingInput.count)
                for (offset, byte) in pendingInput.prefix(taken).enumerated() { buffer[offset] = byte }
                pendingInput = pendingInput.dropFirst(taken)
                return taken
            }
            return WslayTransfer.answer(ConnectionSocket.readNow(fd, into: buffer, count: count), context, peer: "the client") {
                self.readEnd = $0
            }
        }

        fileprivate func send(_ context: OpaquePointer?, _ data: UnsafePointer<UInt8>, _ count: Int) -> Int {
            WslayTransfer.answer(ConnectionSocket.writeNow(fd, from: data, count: count), context, peer: "the client")
        }

        fileprivate func message(_ context: OpaquePointer?, opcode: UInt8, _ bytes: [UInt8], status: UInt16) {
            let incoming: WebSocketPayload
            switch opcode {
            case 0x8:
                // The app closes: the upstream hears it too (the payload is the code, then the reason).
                upstreamLeg?.close(WebSocketClose(code: status, reason: String(decoding: bytes.dropFirst(2), as: UTF8.self)))
                return
            case 0x1:
                // wslay has checked the UTF-8 (and closed with 1007 when it is not).
                incoming = .text(String(decoding: bytes, as: UTF8.self))
            case 0x2:
                incoming = .binary(bytes)
            default:
                return  // close, ping and pong: wslay answers them
            }
            messagesIn.add(1, ordering: .relaxed)
            hooks.journal(self, incoming, false)
            transcript?.append(.init(fromApp: true, message: incoming, nanoseconds: RequestState.monotonicNanoseconds()))
            if let upstreamLeg {
                upstreamLeg.send(incoming)
            } else if conversation != nil {
                perform(conversation!.received(incoming)[...])
            }
        }

        private static var callbacks: wslay_event_callbacks {
            wslay_event_callbacks(
                recv_callback: { context, buffer, count, _, user in
                    connection(user).receive(context, buffer!, count)
                },
                send_callback: { context, data, count, _, user in
                    connection(user).send(context, data!, count)
                },
                genmask_callback: nil, on_frame_recv_start_callback: nil, on_frame_recv_chunk_callback: nil,
                on_frame_recv_end_callback: nil,
                on_msg_recv_callback: { context, argument, user in
                    guard let argument else { return }
                    let bytes = Array(UnsafeBufferPointer(start: argument.pointee.msg, count: argument.pointee.msg_length))
                    connection(user).message(context, opcode: argument.pointee.opcode, bytes, status: argument.pointee.status_code)
                })
        }
    }

    private func connection(_ user: UnsafeMutableRawPointer?) -> WebSocketConnection {
        Unmanaged<WebSocketConnection>.fromOpaque(user!).takeUnretainedValue()
    }
#endif
