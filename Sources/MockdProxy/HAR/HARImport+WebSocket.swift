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

    /// Seconds since 1970 of a HAR `startedDateTime` (ISO 8601: `2026-12-07T17:04:05.123Z`, or
    /// with `+01:00`); nil for anything else, trailing text included.
    static func secondsSince1970(_ text: String) -> Double? {
        for style in [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()] {
            if let match = text.wholeMatch(of: style) { return match.output.timeIntervalSince1970 }
        }
        return nil
    }
}
