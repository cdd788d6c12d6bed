import CMicroHTTPD
package import MockdCore
package import MockdSystem
import Logging
import Synchronization

/// Keeps a relayed conversation (`--record`): the path it was opened on and what went each way.
package typealias ConversationRecorder = @Sendable (_ path: String, _ transcript: WebSocketTranscript) -> Void

/// Opens the upstream side of a WebSocket relayed with `--proxy` (MockdProxy's, over libcurl):
/// gives the callback what to carry out, once, and with a 101 the upstream's stream.
package typealias WebSocketRelayOpener =
    @Sendable (WebSocketRelay, MockRequest, @escaping @Sendable (Resolution, (any ByteStream)?) -> Void) -> Void

/// Carrying out an upgrade: the 101 goes out through libmicrohttpd, which then hands over the
/// socket (`webSocketUpgraded`), and a `WebSocketConnection` holds the conversation on it.
extension HTTPServer {
    func upgrade(_ upgrade: WebSocketUpgrade, for request: MockRequest, connection: OpaquePointer, state: RequestState) -> MHD_Result {
        #if MOCKD_NO_WEBSOCKET
            let refusal = ErrorAnswer(
                501,
                "this build of mockd has no WebSocket support (it was built with MOCKD_NO_WEBSOCKET set); build it without"
            ).response(origin: upgrade.head.origin, layout: .compact)
            return execute(
                .respond(Reply(.built(refusal), scenario: upgrade.scenario)), for: request, serving: nil, connection: connection,
                state: state)
        #else
            state.phase = .answered
            let head = upgrade.head
            log.record(request, status: head.status, origin: head.origin, label: head.source, scenario: upgrade.scenario, state: state)
            var upstream: (any ByteStream)?
            if case .upstream = upgrade.peer {
                upstream = relayStreams.withLock { $0.removeValue(forKey: ObjectIdentifier(state)) }
                guard upstream != nil else { return .NO }
            }
            let pending = Unmanaged.passRetained(PendingUpgrade(server: self, upgrade: upgrade, upstream: upstream)).toOpaque()
            guard let response = MHD_create_response_for_upgrade(webSocketUpgraded, pending) else {
                Unmanaged<PendingUpgrade>.fromOpaque(pending).release()
                return .NO
            }
            defer { MHD_destroy_response(response) }
            for header in head.headers + [HTTPHeader("X-Mockd-Source", head.source)] {
                _ = MHD_add_response_header(response, header.name, header.value)
            }
            return MHD_queue_response(connection, UInt32(head.status), response)
        #endif
    }

    /// An upgrade nothing here answers, with `--proxy` on: parked while the upstream answers it,
    /// then its 101 (the relay starts), its refusal or mockd's 502/504 is carried out.
    func relay(_ relay: WebSocketRelay, for request: MockRequest, serving: ServingState?, connection: OpaquePointer, state: RequestState)
        -> MHD_Result
    {
        guard let relayOpener else { return .NO }  // the policy relays only with a proxy
        state.relayed = true
        return park(
            connection, state: state, request: request, serving: serving,
            .work { [self] in
                relayOpener(relay, request) { [self] resolution, stream in
                    if let stream { relayStreams.withLock { $0[ObjectIdentifier(state)] = stream } }
                    finishWork(state, .resolved(resolution))
                }
            })
    }

    /// Carries out an admin call's command on the open connections.
    func webSocketReport(_ command: WebSocketCommand) -> WebSocketReport {
        #if MOCKD_NO_WEBSOCKET
            switch command {
            case .send: return .sent(0)
            case .list: return .connections([])
            case .close: return .closed(false)
            }
        #else
            switch command {
            case .send(let message, let session, let path):
                return .sent(webSockets.send(message, session: session, path: path))
            case .list(let session):
                let open = session.map { webSockets.connections(session: .some($0.isEmpty ? nil : $0)) } ?? webSockets.connections()
                return .connections(
                    open.map {
                        WebSocketConnectionInfo(
                            id: $0.id, session: $0.session, path: $0.path, opened: $0.opened,
                            messagesIn: $0.messagesIn.load(ordering: .relaxed), messagesOut: $0.messagesOut.load(ordering: .relaxed))
                    })
            case .close(let id, let code, let reason):
                guard let connection = webSockets.connection(id) else { return .closed(false) }
                connection.close(code: code, reason: reason)
                return .closed(true)
            }
        #endif
    }

    #if !MOCKD_NO_WEBSOCKET
        /// `--record`: hands a relayed conversation, once over, to the recorder.
        private var recordsConversations: (@Sendable (WebSocketConnection, WebSocketTranscript) -> Void)? {
            guard let conversationRecorder else { return nil }
            return { connection, transcript in conversationRecorder(connection.path, transcript) }
        }

        /// The socket is mockd's: the conversation starts.
        fileprivate func upgraded(
            _ upgrade: WebSocketUpgrade, upstream: (any ByteStream)?, fd: Int32, handle: OpaquePointer, extra: [UInt8]
        ) {
            let hooks = WebSocketHooks(
                after: { [parking] delay, body in parking.after(delay, body) },
                broadcast: { [webSockets] from, message in webSockets.send(message, session: from.session, path: from.path) },
                ended: { [webSockets, logger] connection, how in
                    webSockets.remove(connection)
                    logger.info(
                        "websocket ended",
                        metadata: [
                            "mockd.connection": "\(connection.id)", "mockd.path": "\(connection.path)",
                            "mockd.session": "\(connection.session ?? "")",
                            "mockd.messages_in": "\(connection.messagesIn.load(ordering: .relaxed))",
                            "mockd.messages_out": "\(connection.messagesOut.load(ordering: .relaxed))", "mockd.how": "\(how)",
                        ])
                },
                journal: { [log] connection, message, outgoing in log.recordMessage(message, outgoing: outgoing, on: connection) },
                maxMessageBytes: configuration.maxWebSocketMessageBytes,
                pingInterval: configuration.webSocketPingSeconds > 0 ? .seconds(configuration.webSocketPingSeconds) : nil,
                record: recordsConversations)
            let connection = WebSocketConnection(
                id: webSockets.nextID(), upgrade: upgrade, upstream: upstream, fd: fd, handle: handle, extra: extra,
                opened: Timestamp.now(),
                hooks: hooks, target: webSockets.queue)
            webSockets.add(connection)
            connection.start()
        }
    #endif
}

#if !MOCKD_NO_WEBSOCKET
    /// What the upgrade callback needs, retained across libmicrohttpd's handover.
    private final class PendingUpgrade {
        let server: HTTPServer
        let upgrade: WebSocketUpgrade
        /// A relayed upgrade's upstream connection.
        let upstream: (any ByteStream)?

        init(server: HTTPServer, upgrade: WebSocketUpgrade, upstream: (any ByteStream)?) {
            self.server = server
            self.upgrade = upgrade
            self.upstream = upstream
        }
    }

    /// libmicrohttpd's upgrade callback: the 101 is sent and the socket is ours until
    /// `MHD_upgrade_action(…, CLOSE)`. `extra`: bytes the client sent after its request head.
    private func webSocketUpgraded(
        _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ requestContext: UnsafeMutableRawPointer?,
        _ extra: UnsafePointer<CChar>?, _ extraCount: Int, _ fd: MHD_socket, _ handle: OpaquePointer?
    ) {
        let pending = Unmanaged<PendingUpgrade>.fromOpaque(context!).takeRetainedValue()
        let bytes = extra.map { Array(UnsafeRawBufferPointer(start: $0, count: extraCount)) } ?? []
        guard let handle else { return }
        pending.server.upgraded(pending.upgrade, upstream: pending.upstream, fd: fd, handle: handle, extra: bytes)
    }
#endif
