#if canImport(FoundationEssentials)
    import FoundationEssentials  // base64 only
#else
    import Foundation
#endif

/// A response sent in pieces over time: server-sent events, or timed chunks of any body. The
/// pieces are framed at load (an event's `event:`/`id:`/`data:` lines are bytes by then); the
/// adapter sends each when its time comes, with the connection suspended in between.
///
/// A class: a `PreparedResponse` (a `.sse` file) carries it as one optional reference and a
/// stream's `Reply` holds it in its own case, so every other answer copies one pointer more at
/// most, not a struct of arrays and strings.
package final class ResponseStream: Sendable {
    package struct Piece: Sendable {
        package let bytes: [UInt8]
        /// Waited before this piece (none for the first unless it says so).
        package let delay: Delay?
    }

    /// How the stream ends once its pieces are sent.
    package enum Ending: String, Sendable, Equatable {
        /// The last chunk and a clean end.
        case complete
        /// `cutAfter`: the connection closes without the end of the chunked body.
        case cut
        /// `cutAfter` with `"fault": "reset"`: the connection is reset.
        case reset
    }

    /// What is sent (`cutAfter` keeps the first N).
    package let pieces: [Piece]
    /// How many pieces the route defines, for the log (`2 of 3 events, cut`).
    package let defined: Int
    package let ending: Ending
    /// `events` or `chunks`, for the log (`3 of 3 events`).
    package let unit: String
    /// Sent with the stream's other headers (SSE: `text/event-stream`).
    package let contentType: String?
    /// With `"template": true`, each piece's template (over the request, as a body's), rendered
    /// per request into the pieces sent; nil otherwise.
    let templates: [ResponseTemplate]?

    init(pieces: [Piece], defined: Int, ending: Ending, unit: String, contentType: String?, templates: [ResponseTemplate]? = nil) {
        self.pieces = pieces
        self.defined = defined
        self.ending = ending
        self.unit = unit
        self.contentType = contentType
        self.templates = templates
    }

    /// The stream for one request: its pieces rendered when they are templates.
    func rendered(request: MockRequest, parameters: [String: String]) -> ResponseStream {
        guard let templates else { return self }
        let pieces = zip(pieces, templates).map { piece, template in
            Piece(bytes: template.render(request: request, parameters: parameters).body, delay: piece.delay)
        }
        return ResponseStream(pieces: pieces, defined: defined, ending: ending, unit: unit, contentType: contentType)
    }

    /// CR LF, CR and LF each end a line in server-sent events (CR LF is one `Character`).
    static func endsLine(_ character: Character) -> Bool {
        character == "\n" || character == "\r" || character == "\r\n"
    }

    /// `what` as one server-sent event, framed as the HTML standard reads it: `event:`, `id:`,
    /// `retry:` lines, then one `data:` line per line of the data, then a blank line.
    static func event(name: String?, id: String?, retry: Int?, data: String) -> [UInt8] {
        var text = ""
        if let name { text += "event: \(name)\n" }
        if let id { text += "id: \(id)\n" }
        if let retry { text += "retry: \(retry)\n" }
        // A data line must not hold a line end: one `data:` line per line.
        let lines = data.split(omittingEmptySubsequences: false, whereSeparator: endsLine)
        for line in lines { text += "data: \(line)\n" }
        return Array((text + "\n").utf8)
    }
}

extension ResponseStream {
    /// The wait between events written as text (a `.sse` file, an OpenAPI `text/event-stream` example) unless told otherwise.
    package static let defaultIntervalMilliseconds = 50

    /// The events of a `.sse` file (or an OpenAPI `text/event-stream` example), written as they
    /// go on the wire and separated by blank lines, each sent `intervalMilliseconds` after the
    /// one before; nil when there are none.
    package static func events(inText bytes: UnsafeRawBufferPointer, intervalMilliseconds: Int = defaultIntervalMilliseconds)
        -> ResponseStream?
    {
        let text = String(decoding: bytes, as: UTF8.self)
        // An event ends at a blank line.
        var events: [String] = []
        var current: [Substring] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: endsLine) {
            if line.isEmpty {
                if !current.isEmpty { events.append(current.joined(separator: "\n")) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { events.append(current.joined(separator: "\n")) }
        guard !events.isEmpty else { return nil }
        let pieces = events.enumerated().map { index, event in
            Piece(bytes: Array((event + "\n\n").utf8), delay: index == 0 ? nil : Delay(milliseconds: intervalMilliseconds))
        }
        return ResponseStream(pieces: pieces, defined: pieces.count, ending: .complete, unit: "events", contentType: "text/event-stream")
    }
}

extension RouteDecoder {
    static let streamKeys = ["events", "chunks", "intervalMs", "cutAfter", "bytesPerSecond"]
    static let eventKeys = ["event", "id", "retry", "data", "delayMs"]
    static let chunkKeys = ["text", "base64", "file", "delayMs"]

    /// `"stream": {…}` of a response. `body`: the response's own body (json, text or file), which
    /// `bytesPerSecond` alone sends throttled. Nil after reporting what is wrong.
    mutating func decodeStream(_ value: JSONValue, at: String, body: [UInt8]?, fault: Fault?, template: Bool = false) -> ResponseStream? {
        guard case .object = value else {
            error(at, "expected a stream object like {\"events\": [{\"data\": {…}}], \"intervalMs\": 80}, found \(found(value))")
            return nil
        }
        checkKeys(value, allowed: Self.streamKeys, at: at)
        let errorsBefore = diagnostics.count
        var interval: Delay?
        if let raw = value["intervalMs"] { interval = decodeDelay(raw, at: at + ".intervalMs") }
        var pieces: [ResponseStream.Piece] = []
        var unit = "chunks"
        var contentType: String?
        let kinds = ["events", "chunks", "bytesPerSecond"].filter { value[$0] != nil }
        if kinds.count != 1 {
            error(
                at,
                kinds.isEmpty
                    ? "expected \"events\", \"chunks\" or \"bytesPerSecond\""
                    : "has \(kinds.map { "\"\($0)\"" }.joined(separator: " and ")); a stream has one")
            return nil
        }
        if case .array(let events)? = value["events"] {
            unit = "events"
            contentType = "text/event-stream"
            if body != nil { error(at, "events are the body: leave out the response's json, text or file") }
            for (index, event) in events.enumerated() {
                if let piece = decodeEvent(event, at: "\(at).events[\(index)]", first: index == 0, interval: interval) {
                    pieces.append(piece)
                }
            }
        } else if let raw = value["events"] {
            error(at + ".events", "expected an array of events, found \(found(raw))")
        } else if case .array(let chunks)? = value["chunks"] {
            if body != nil { error(at, "chunks are the body: leave out the response's json, text or file") }
            for (index, chunk) in chunks.enumerated() {
                if let piece = decodeChunk(chunk, at: "\(at).chunks[\(index)]", first: index == 0, interval: interval) {
                    pieces.append(piece)
                }
            }
        } else if let raw = value["chunks"] {
            error(at + ".chunks", "expected an array of chunks (strings, {\"base64\": …} or {\"file\": …}), found \(found(raw))")
        } else if let raw = value["bytesPerSecond"] {
            guard case .number(let text) = raw, let rate = Int(text), rate > 0 else {
                error(at + ".bytesPerSecond", "expected a whole number of bytes above 0, found \(found(raw))")
                return nil
            }
            guard let body else {
                error(at, "\"bytesPerSecond\" throttles the response's body: give it a json, text or file body")
                return nil
            }
            // Ten pieces a second: smooth enough to watch, few enough timers.
            let size = max(1, rate / 10)
            pieces = stride(from: 0, to: max(body.count, 1), by: size).map { start in
                ResponseStream.Piece(
                    bytes: Array(body[start..<min(start + size, body.count)]), delay: start == 0 ? nil : Delay(milliseconds: 100))
            }
        }
        if pieces.isEmpty && diagnostics.count == errorsBefore { error(at, "the stream has nothing to send") }
        var ending = ResponseStream.Ending.complete
        let defined = pieces.count
        if let raw = value["cutAfter"] {
            if case .number(let text) = raw, let count = Int(text), count >= 0, count <= pieces.count {
                pieces = Array(pieces.prefix(count))
                ending = fault == .reset ? .reset : .cut
            } else {
                error(at + ".cutAfter", "expected a whole number of \(unit) from 0 to \(pieces.count), found \(found(raw))")
            }
        }
        guard diagnostics[errorsBefore...].allSatisfy({ $0.severity == .warning }) else { return nil }
        var templates: [ResponseTemplate]?
        if template && value["bytesPerSecond"] != nil {
            error(at, "\"bytesPerSecond\" sends the body in slices, which a template cannot be cut into; use \"chunks\"")
            return nil
        }
        if template {
            // Each piece as written is a template; values go into JSON strings escaped (SSE
            // data is most often JSON), into other text as they are.
            do {
                templates = try pieces.map { piece in
                    let text = String(decoding: piece.bytes, as: UTF8.self)
                    return try ResponseTemplate(
                        text: text, json: unit == "events" && text.contains("{"), status: 200, headers: [], origin: .route(""))
                }
            } catch {
                self.error(at, "a piece does not parse as a template: \(error)")
                return nil
            }
        }
        return ResponseStream(pieces: pieces, defined: defined, ending: ending, unit: unit, contentType: contentType, templates: templates)
    }

    private mutating func decodeEvent(_ value: JSONValue, at: String, first: Bool, interval: Delay?) -> ResponseStream.Piece? {
        guard case .object = value else { error(at, "expected an event like {\"data\": {…}}, found \(found(value))"); return nil }
        checkKeys(value, allowed: Self.eventKeys, at: at)
        let name = value["event"].flatMap { string($0, at: at + ".event") }
        let id = value["id"].flatMap { string($0, at: at + ".id") }
        var retry: Int?
        if let raw = value["retry"] {
            if case .number(let text) = raw, let milliseconds = Int(text), milliseconds >= 0 {
                retry = milliseconds
            } else {
                error(at + ".retry", "expected milliseconds as a whole number, found \(found(raw))")
            }
        }
        let data: String
        switch value["data"] {
        case .string(let text)?: data = text
        case let json?: data = json.serialized  // compact, on one line
        case nil: error(at, "missing \"data\""); return nil
        }
        for (field, text) in [("event", name), ("id", id)] where text?.contains(where: ResponseStream.endsLine) == true {
            error("\(at).\(field)", "must be one line")
        }
        let delay = value["delayMs"].flatMap { decodeDelay($0, at: at + ".delayMs") } ?? (first ? nil : interval)
        return ResponseStream.Piece(bytes: ResponseStream.event(name: name, id: id, retry: retry, data: data), delay: delay)
    }

    private mutating func decodeChunk(_ value: JSONValue, at: String, first: Bool, interval: Delay?) -> ResponseStream.Piece? {
        var delay = first ? nil : interval
        switch value {
        case .string(let text):
            return ResponseStream.Piece(bytes: Array(text.utf8), delay: delay)
        case .object:
            checkKeys(value, allowed: Self.chunkKeys, at: at)
            if let raw = value["delayMs"] { delay = decodeDelay(raw, at: at + ".delayMs") }
            let sources = ["text", "base64", "file"].filter { value[$0] != nil }
            guard sources.count == 1 else { error(at, "expected one of \"text\", \"base64\" or \"file\""); return nil }
            if let raw = value["text"] {
                guard let text = string(raw, at: at + ".text") else { return nil }
                return ResponseStream.Piece(bytes: Array(text.utf8), delay: delay)
            }
            if let raw = value["base64"] {
                guard case .string(let text) = raw, let bytes = Data(base64Encoded: text) else {
                    error(at + ".base64", "expected base64 text, found \(found(raw))")
                    return nil
                }
                return ResponseStream.Piece(bytes: Array(bytes), delay: delay)
            }
            guard case .string(let path)? = value["file"] else {
                error(at + ".file", "expected a path relative to the mock root"); return nil
            }
            guard let bytes = readBodyFile(path, at: at + ".file") else { return nil }
            return ResponseStream.Piece(bytes: bytes, delay: delay)
        default:
            error(at, "expected a chunk (a string, {\"base64\": …} or {\"file\": …}), found \(found(value))")
            return nil
        }
    }
}
