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
        /// A server-sent event's `id`, read once at load: what a reconnecting client names
        /// in `Last-Event-ID` to go on after it. Nil for chunks and events without one.
        package let id: String?

        init(bytes: [UInt8], delay: Delay?, id: String? = nil) {
            self.bytes = bytes
            self.delay = delay
            self.id = id
        }
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
    /// Each event id and the index of the piece after the first event that has it: where a
    /// client that names it in `Last-Event-ID` goes on. Made once, at load; empty when no
    /// piece has an id, so a request to such a stream never reads the header.
    let resumptions: [String: Int]

    init(
        pieces: [Piece], defined: Int, ending: Ending, unit: String, contentType: String?, templates: [ResponseTemplate]? = nil,
        resumptions: [String: Int]? = nil
    ) {
        self.pieces = pieces
        self.defined = defined
        self.ending = ending
        self.unit = unit
        self.contentType = contentType
        self.templates = templates
        self.resumptions = resumptions ?? Self.resumptions(of: pieces)
    }

    private static func resumptions(of pieces: [Piece]) -> [String: Int] {
        var found: [String: Int] = [:]
        for (index, piece) in pieces.enumerated() {
            // The first event with an id: a repeated id cannot tell the client's place better.
            if let id = piece.id, found[id] == nil { found[id] = index + 1 }
        }
        return found
    }

    /// The stream for one request: its pieces rendered when they are templates.
    func rendered(request: MockRequest, parameters: [String: String]) -> ResponseStream {
        guard let templates else { return self }
        let pieces = zip(pieces, templates).map { piece, template in
            Piece(bytes: template.render(request: request, parameters: parameters).body, delay: piece.delay, id: piece.id)
        }
        return ResponseStream(
            pieces: pieces, defined: defined, ending: ending, unit: unit, contentType: contentType, resumptions: resumptions)
    }

    /// What a client that reconnects with `Last-Event-ID: lastEventID` is sent: the pieces
    /// after that event (the events without ids after it too, as a server that kept the
    /// client's place would), or, for an id the stream does not have, the whole stream with a
    /// warning saying so: a real server does not know such an id either. Nil when no piece
    /// has an id: such a stream is sent as it is.
    func resumed(after lastEventID: String) -> (stream: ResponseStream, warning: String?)? {
        guard !resumptions.isEmpty else { return nil }
        guard let start = resumptions[lastEventID] else {
            return (
                self,
                "Last-Event-ID \(JSONText.quoted(lastEventID)) is no event id of this stream; sent from the first event"
            )
        }
        let rest = ResponseStream(
            pieces: Array(pieces[start...]), defined: defined - start, ending: ending, unit: unit, contentType: contentType,
            templates: templates.map { Array($0[start...]) }, resumptions: [:])
        return (rest, nil)
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
            Piece(
                bytes: Array((event + "\n\n").utf8), delay: index == 0 ? nil : Delay(milliseconds: intervalMilliseconds),
                id: eventID(event))
        }
        return ResponseStream(pieces: pieces, defined: pieces.count, ending: .complete, unit: "events", contentType: "text/event-stream")
    }

    /// The id an event's `id` field sets, read as the HTML standard does: the field name up to
    /// the first colon, one space after it dropped, the last `id` line winning. An empty id (it
    /// clears the client's) or one holding NUL (ignored by clients) is none.
    static func eventID(_ event: String) -> String? {
        var id: String?
        for line in event.split(separator: "\n") where line.hasPrefix("id") {
            let field = line.prefix { $0 != ":" }
            guard field == "id" else { continue }
            var value = line.dropFirst(field.count).dropFirst()  // the colon, when there is one
            if value.first == " " { value = value.dropFirst() }
            guard !value.contains("\0") else { continue }
            id = value.isEmpty ? nil : String(value)
        }
        return id
    }
}
