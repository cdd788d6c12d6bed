#if canImport(FoundationEssentials)
    import FoundationEssentials  // base64 only
#else
    import Foundation
#endif

/// Reading a route's `"stream"` (events or chunks, their timing, a cut) into a `ResponseStream`.
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
        return ResponseStream.Piece(
            bytes: ResponseStream.event(name: name, id: id, retry: retry, data: data), delay: delay, id: id?.isEmpty == false ? id : nil)
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
