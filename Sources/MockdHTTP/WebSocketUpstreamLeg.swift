// Not in a build without wslay (Package.swift).
#if !MOCKD_NO_WEBSOCKET
    import CWslay
    import Dispatch
    import MockdCore
    import MockdSystem

    /// The upstream's side of a relayed WebSocket (`--proxy`): mockd is the client here, so wslay
    /// masks what it sends. It lives on its app connection's serial queue and is driven only
    /// from there; it tells the connection what the upstream sends and when it ends.
    final class WebSocketUpstreamLeg: @unchecked Sendable {
        struct Events {
            /// A whole message from the upstream.
            let message: (WebSocketPayload) -> Void
            /// The upstream started the close handshake (wslay answers it).
            let closing: (WebSocketClose) -> Void
            /// The upstream connection is over (how, in words); called once.
            let ended: (String) -> Void
        }

        private let stream: any ByteStream
        private let queue: DispatchQueue
        private let events: Events
        private var context: OpaquePointer?
        private let watch: SocketWatch
        private var finished = false
        private var readEnd: String?
        private var generator = SystemRandomNumberGenerator()

        init(stream: any ByteStream, queue: DispatchQueue, maxMessageBytes: Int, events: Events) {
            self.stream = stream
            self.queue = queue
            self.events = events
            self.watch = SocketWatch(fd: stream.fd, queue: queue)
            var callbacks = Self.callbacks
            if wslay_event_context_client_init(&context, &callbacks, Unmanaged.passUnretained(self).toOpaque()) == 0, let context {
                wslay_event_config_set_max_recv_msg_length(context, UInt64(maxMessageBytes))
            }
        }

        /// Starts reading (on the queue); what the upstream sent with its 101 is read at once.
        func start() {
            guard context != nil else { return finish("out of memory") }
            ConnectionSocket.sendAtOnce(stream.fd)
            watch.startReading { [self] in readable() }
            readable()
        }

        /// Relays a message of the app's (on the queue).
        func send(_ message: WebSocketPayload) {
            guard let context, !finished, wslay_event_get_close_sent(context) == 0 else { return }
            let (bytes, binary) = message.bytes
            _ = bytes.withUnsafeBufferPointer { buffer in
                var message = wslay_event_msg(opcode: binary ? 0x2 : 0x1, msg: buffer.baseAddress, msg_length: buffer.count)
                return wslay_event_queue_msg(context, &message)
            }
            flush()
        }

        /// Relays the app's close (on the queue); code 0 sends a close without a code.
        func close(_ close: WebSocketClose) {
            guard let context, !finished, wslay_event_get_close_sent(context) == 0 else { return }
            _ = Array(close.reason.utf8).withUnsafeBufferPointer { reason in
                wslay_event_queue_close(context, close.code, reason.baseAddress, reason.count)
            }
            flush()
        }

        /// The app's side ended: so does this one, once the upstream answered a close under way
        /// (a second at most), else now.
        func stop() {
            guard let context, !finished else { return }
            if wslay_event_get_close_sent(context) != 0, wslay_event_get_close_received(context) == 0 {
                queue.asyncAfter(deadline: .now() + 1) { [self] in finish("the upstream did not answer the close") }
                return
            }
            finish("the app's connection ended")
        }

        private func readable() {
            guard let context, !finished else { return }
            if wslay_event_recv(context) != 0 { return finish(readEnd ?? "the upstream broke the WebSocket protocol") }
            flush()
        }

        private func flush() {
            guard let context, !finished else { return }
            if wslay_event_send(context) != 0 { return finish("a write to the upstream failed") }
            if wslay_event_want_write(context) != 0 {
                watch.wantWritable { [self] in flush() }
            } else {
                watch.writeIdle()
            }
            if let readEnd {
                finish(readEnd)
            } else if wslay_event_want_read(context) == 0 && wslay_event_want_write(context) == 0 {
                finish("closed")
            }
        }

        private func finish(_ how: String) {
            guard !finished else { return }
            finished = true
            events.ended(how)
            // Once no source watches the socket any more, it can be closed.
            watch.cancel { [self] in
                if let context { wslay_event_context_free(context) }
                context = nil
                stream.close()
            }
        }

        // MARK: - wslay's callbacks (on the queue: wslay calls them from recv and send)

        fileprivate func receive(_ context: OpaquePointer?, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
            WslayTransfer.answer(stream.read(into: buffer, count: count), context, peer: "the upstream") { self.readEnd = $0 }
        }

        fileprivate func send(_ context: OpaquePointer?, _ data: UnsafePointer<UInt8>, _ count: Int) -> Int {
            WslayTransfer.answer(stream.write(from: data, count: count), context, peer: "the upstream")
        }

        fileprivate func mask(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) {
            for index in 0..<count { buffer[index] = UInt8.random(in: 0...255, using: &generator) }
        }

        fileprivate func received(opcode: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, status: UInt16) {
            switch opcode {
            case 0x1: events.message(.text(String(decoding: bytes, as: UTF8.self)))
            case 0x2: events.message(.binary(Array(bytes)))
            case 0x8:
                // The payload is the code's two bytes, then the reason.
                let reason = bytes.count > 2 ? String(decoding: UnsafeBufferPointer(rebasing: bytes[2...]), as: UTF8.self) : ""
                events.closing(WebSocketClose(code: status, reason: reason))
            default: return  // ping and pong: wslay answers them
            }
        }

        private static var callbacks: wslay_event_callbacks {
            wslay_event_callbacks(
                recv_callback: { context, buffer, count, _, user in
                    leg(user).receive(context, buffer!, count)
                },
                send_callback: { context, data, count, _, user in
                    leg(user).send(context, data!, count)
                },
                genmask_callback: { _, buffer, count, user in
                    leg(user).mask(buffer!, count)
                    return 0
                },
                on_frame_recv_start_callback: nil, on_frame_recv_chunk_callback: nil, on_frame_recv_end_callback: nil,
                on_msg_recv_callback: { _, argument, user in
                    guard let argument else { return }
                    let bytes = UnsafeBufferPointer(start: argument.pointee.msg, count: argument.pointee.msg_length)
                    leg(user).received(opcode: argument.pointee.opcode, bytes, status: argument.pointee.status_code)
                })
        }
    }

    private func leg(_ user: UnsafeMutableRawPointer?) -> WebSocketUpstreamLeg {
        Unmanaged<WebSocketUpstreamLeg>.fromOpaque(user!).takeUnretainedValue()
    }
#endif
