import CMicroHTTPD
import MockdCore
import Logging
import Synchronization

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
            let pending = Unmanaged.passRetained(PendingUpgrade(server: self, upgrade: upgrade)).toOpaque()
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
        /// The socket is mockd's: the conversation starts.
        fileprivate func upgraded(_ upgrade: WebSocketUpgrade, fd: Int32, handle: OpaquePointer, extra: [UInt8]) {
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
                pingInterval: configuration.webSocketPingSeconds > 0 ? .seconds(configuration.webSocketPingSeconds) : nil)
            let connection = WebSocketConnection(
                id: webSockets.nextID(), upgrade: upgrade, fd: fd, handle: handle, extra: extra, opened: Timestamp.now(), hooks: hooks,
                target: webSockets.queue)
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

        init(server: HTTPServer, upgrade: WebSocketUpgrade) {
            self.server = server
            self.upgrade = upgrade
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
        pending.server.upgraded(pending.upgrade, fd: fd, handle: handle, extra: bytes)
    }
#endif
