#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import MockdCore

/// A WebSocket entry of Chrome's export (status 101, `_webSocketMessages`) as a `.ws` file
/// (docs/WEBSOCKET.md), written by the transcript `--record` writes relayed conversations with:
/// each message the server sent becomes a `send` line, timed by its gap to the message before it,
/// and each message the app sent an `expect` line.
struct CapturedConversation {
    var transcript: WebSocketTranscript
    /// The messages both ways (pings and closes left out).
    var messages: Int

    /// The file's text: one JSON object a line.
    var text: String { transcript.fileText }

    /// `messages` in order; `opened`, when the upgrade was sent (seconds since 1970), times the
    /// first message the server sent; `subprotocol`, the 101's `Sec-WebSocket-Protocol`. A
    /// problem names its place from the entry (`_webSocketMessages[3].opcode`).
    static func read(_ messages: [HARFile.WebSocketMessage], opened: Double?, subprotocol: String?) -> Result<Self, HARImport.EntryProblem>
    {
        // Chrome's times are seconds since 1970; the transcript's, nanoseconds from the earliest.
        let origin = ([opened].compactMap { $0 } + messages.map(\.time)).min() ?? 0
        func nanoseconds(_ time: Double) -> UInt64 {
            let value = ((time - origin) * 1e9).rounded()
            return value > 0 && value < 1e19 ? UInt64(value) : 0
        }
        var transcript = WebSocketTranscript(
            subprotocol: subprotocol.flatMap { ASCII.isToken($0) ? $0 : nil },
            openedNanoseconds: nanoseconds(opened ?? messages.first?.time ?? origin))
        var count = 0
        for (index, message) in messages.enumerated() {
            let at = "_webSocketMessages[\(index)]"
            let payload: WebSocketPayload
            switch message.opcode {
            case 1:
                payload = .text(message.data ?? "")
            case 2:
                // Chrome writes a binary message's bytes in base64.
                guard let bytes = Data(base64Encoded: String((message.data ?? "").filter { !$0.isWhitespace })) else {
                    return .failure(HARImport.EntryProblem(message: "\(at).data is not valid base64 (opcode 2 is a binary message)"))
                }
                payload = .binary(Array(bytes))
            case 8, 9, 10:
                // A close, ping or pong: mockd answers those itself.
                continue
            default:
                return .failure(HARImport.EntryProblem(message: "\(at).opcode: \(message.opcode) is not a message's (1 text, 2 binary)"))
            }
            guard message.type == "send" || message.type == "receive" else {
                return .failure(
                    HARImport.EntryProblem(
                        message:
                            "\(at).type: \(JSONText.quoted(message.type)) is neither \"send\" (the app's) nor \"receive\" (the server's)"))
            }
            transcript.append(.init(fromApp: message.type == "send", message: payload, nanoseconds: nanoseconds(message.time)))
            count += 1
        }
        return .success(CapturedConversation(transcript: transcript, messages: count))
    }
}

extension HARImport {
    /// A 101 with Chrome's `_webSocketMessages`: the upgrade as a GET of the path and its
    /// conversation. Without the messages (other browsers' exports) there is nothing to replay.
    func webSocketExchange(_ entry: HARFile.Entry, target: HARURL, response: HARFile.Response) -> Result<Exchange, EntryProblem> {
        guard entry.request.method.uppercased() == "GET" else {
            return .failure(EntryProblem(message: "a WebSocket upgrade is a GET; this 101 answered \(entry.request.method)"))
        }
        guard let messages = entry.webSocketMessages else {
            return .failure(
                EntryProblem(
                    message: "a WebSocket upgrade without _webSocketMessages (Chrome's export keeps them): no conversation to write",
                    isError: false))
        }
        let subprotocol = (response.headers ?? []).first { $0.name.lowercased() == "sec-websocket-protocol" }?.value[...]
            .trimming(.whitespace)
        let conversation: CapturedConversation
        switch CapturedConversation.read(
            messages, opened: entry.startedDateTime.flatMap(Self.secondsSince1970), subprotocol: subprotocol.map(String.init))
        {
        case .success(let read): conversation = read
        case .failure(let problem): return .failure(problem)
        }
        let request = MockRequest(method: "GET", path: target.path, rawPath: target.rawPath)
        return .success(
            Exchange(
                request: request, host: target.host, response: BuiltResponse(status: 101, headers: [], body: [], origin: .capture),
                undoneCoding: nil, conversation: conversation))
    }

    /// The plan for the last of a path's captured connections: `mock_<path>_get.ws` in the root
    /// (or the scenario's folder), kept when a mock already answers the upgrade's GET unless
    /// forced. A `.json` or `.sse` file answering it is never replaced by a `.ws` beside it (both
    /// would answer the same request): the entry is skipped, saying which file to remove.
    func planConversation(
        _ exchange: Exchange, _ conversation: CapturedConversation, table: RouteTable, existingMockFile: (String) -> String?
    )
        -> RecordPlan
    {
        let path = Recorder.normalized(exchange.request.path)
        let name = MockFileName.forRequest(method: "GET", path: path)
        guard Recorder.isSafeFileName(name), case .mock(let method, _) = MockFileName.parse(name), method == "GET" else {
            return RecordPlan(outcome: .skipped("the path cannot be a mock file's name, and a conversation is only written as a .ws file"))
        }
        let fileName = String(name.dropLast(".json".count)) + ".ws"
        let existing =
            existingMockFile(name) ?? existingMockFile(fileName) ?? existingMockFile(String(name.dropLast(".json".count)) + ".sse")
        let existingRoutes = table.indices(method: "GET", path: path, scenario: recorder.scenario)
        if !recorder.overwrite {
            if let existing { return RecordPlan(outcome: .keptExisting(recorder.root + "/" + existing)) }
            if let index = existingRoutes.first { return RecordPlan(outcome: .keptExisting("\(recorder.routesFile)#\(index)")) }
        }
        if let existing, !existing.hasSuffix(".ws") {
            return RecordPlan(
                outcome: .skipped(
                    "\(recorder.root)/\(existing) answers GET \(path) too; remove it to import the conversation as \(fileName)"))
        }
        let target = recorder.root + "/" + (existing ?? recorder.mockFolder + fileName)
        var plan = RecordPlan(
            outcome: .wroteMock(target),
            writes: [.init(path: target, bytes: Array(conversation.text.utf8), replace: recorder.overwrite, isMockFile: true)])
        // A recorded route for the same request would answer the upgrade instead (routes win): drop it.
        if !existingRoutes.isEmpty {
            var updated = table
            updated.remove(existingRoutes)
            plan.table = updated
        }
        return plan
    }

    /// Seconds since 1970 of a HAR `startedDateTime` (ISO 8601: `2026-12-07T17:04:05.123Z`, or
    /// with `+01:00`); nil for anything else, trailing text included.
    static func secondsSince1970(_ text: String) -> Double? {
        for style in [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()] {
            if let match = text.wholeMatch(of: style) { return match.output.timeIntervalSince1970 }
        }
        return nil
    }
}
