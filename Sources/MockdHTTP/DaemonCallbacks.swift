#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import CMicroHTTPD
import MockdCore
import MockdSystem
import Synchronization
import Logging

// libmicrohttpd's C callbacks: file scope, non-capturing; the context arrives as the server,
// unretained. Each one hands over to the server at once.

func server(_ context: UnsafeMutableRawPointer?) -> HTTPServer {
    Unmanaged<HTTPServer>.fromOpaque(context!).takeUnretainedValue()
}

/// Called once per request, right after the request line; its result becomes the request's context.
func requestStarted(_ context: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?)
    -> UnsafeMutableRawPointer?
{
    let server = server(context)
    server.inFlight.enter()
    let state = RequestState(rawURI: uri)
    if let connection { server.connections.requestLine(connection, now: state.startNanoseconds) }
    return Unmanaged.passRetained(state).toOpaque()
}

/// The same for a session's port, whose context is its `SessionListener`: the request belongs to the session.
func sessionRequestStarted(_ context: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?)
    -> UnsafeMutableRawPointer?
{
    let listener = Unmanaged<SessionListener>.fromOpaque(context!).takeUnretainedValue()
    let server = listener.server
    server.inFlight.enter()
    listener.inFlight.enter()
    let state = RequestState(rawURI: uri, sessionPort: listener)
    if let connection { server.connections.requestLine(connection, now: state.startNanoseconds) }
    return Unmanaged.passRetained(state).toOpaque()
}

/// libmicrohttpd's call pattern: once after the headers, once per body chunk, once more at the end.
func accessHandler(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let connection, let url, let method, let uploadDataSize, let raw = requestContext?.pointee else { return .NO }
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    return server(context).handle(
        connection: connection, url: url, method: method, version: version, uploadData: uploadData,
        uploadDataSize: uploadDataSize, state: state)
}

func requestCompleted(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode
) {
    guard let requestContext, let raw = requestContext.pointee else { return }
    let server = server(context)
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    // Every request whose request line was read leaves one access line and one journal entry,
    // also when its head or body never all came; an answered one has them already.
    if let connection, state.phase == .receiving || state.phase == .new {
        server.recordUnfinished(state, connection: connection, reason: reason)
    }
    server.bodyBudget.release(state.heldBodyBytes)
    // A relay whose app left while the upstream answered: its upstream connection goes too.
    if state.relayed { server.relayStreams.withLock { $0.removeValue(forKey: ObjectIdentifier(state)) }?.close() }
    // Idle from about when the answer was logged (a clock read fewer per request); a request
    // that was never answered reads the clock.
    let now = state.loggedNanoseconds != 0 ? state.loggedNanoseconds : RequestState.monotonicNanoseconds()
    state.sessionPort?.inFlight.leave()
    Unmanaged<RequestState>.fromOpaque(raw).release()
    requestContext.pointee = nil
    server.inFlight.leave()
    if let connection { server.connections.requestDone(connection, now: now) }
}

func acceptPolicy(_ context: UnsafeMutableRawPointer?, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> MHD_Result {
    let server = server(context)
    let open = server.connections.openCount.load(ordering: .relaxed)
    if open >= server.configuration.maxConnections {
        // Make room by closing a slow or idle client; refuse only when every connection is busy.
        let now = RequestState.monotonicNanoseconds()
        if server.connections.evictOne(now: now) {
            if let fields = server.connections.evictions.record(now: now) {
                server.logger.info(
                    "connection limit reached (--max-connections): closed the connection waiting longest for its request head, or idle longest",
                    metadata: fields.merging(["mockd.limit": "\(server.configuration.maxConnections)"]) { $1 })
            }
            return .YES
        }
        if let fields = server.connections.refusals.record(now: now) {
            server.logger.info(
                "connection refused: every connection is busy (--max-connections)",
                metadata: fields.merging(["mockd.limit": "\(server.configuration.maxConnections)", "mockd.open": "\(open)"]) { $1 })
        }
        return .NO
    }
    return .YES
}

func connectionNotified(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode
) {
    let server = server(context)
    if code == .CONNECTION_NOTIFY_STARTED {
        server.connections.openCount.add(1, ordering: .relaxed)
        if let connection { server.connections.opened(connection, socketContext: socketContext, now: RequestState.monotonicNanoseconds()) }
    } else {
        server.connections.closed(socketContext: socketContext)
        server.connections.openCount.subtract(1, ordering: .relaxed)
    }
}

/// libmicrohttpd's own messages (connection errors, 414/431 it answered itself) go to the log, at
/// info: most of them a client can cause at will, and the executable's level decides what is shown.
func libraryLog(_ context: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    var message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while message.last?.isNewline == true { message.removeLast() }
    // Returning MHD_NO (or a content reader's error) is how mockd drops a connection on
    // purpose (faults, a stream's cutAfter): not news. A failed bind is reported by start()
    // with the real port (libmicrohttpd says "port 0"). libmicrohttpd gives its logger only
    // text, a format and its arguments, with no code that tells one message from another, so
    // these three are known by their words. Should a release word them differently, they are
    // logged at info like its other messages: louder, nothing lost.
    if message.hasPrefix("Application reported internal error") || message.hasPrefix("Failed to bind to port")
        || message.hasPrefix("Closing connection (application error generating response)")
    {
        server(context).logger.debug("libmicrohttpd reported", metadata: ["mockd.message": "\(message)"])
    } else {
        server(context).logger.info("libmicrohttpd reported", metadata: ["mockd.message": "\(message)"])
    }
}

/// A header name or value as a Swift string, of the length libmicrohttpd gives (no strlen).
private func string(_ bytes: UnsafePointer<CChar>, _ count: Int) -> String {
    bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
        String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
    }
}

func collectValue(
    _ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let context, let key else { return .YES }
    context.assumingMemoryBound(to: [HTTPHeader].self).pointee
        .append(HTTPHeader(string(key, keySize), value.map { string($0, valueSize) } ?? ""))
    return .YES
}

func collectArgument(
    _ context: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let context, let key else { return .YES }
    context.assumingMemoryBound(to: [(name: String, value: String?)].self).pointee
        .append((string(key, keySize), value.map { string($0, valueSize) }))
    return .YES
}
