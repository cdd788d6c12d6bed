#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif

/// The part of a HAR 1.2 file (`{"log": {"entries": [...]}}`) an import reads. Every other
/// member — timings, cookies, sizes, the `_`-prefixed fields Chrome, Proxyman and Charles add —
/// is ignored, and most members HAR calls required are optional here: exporters leave them out.
struct HARFile: Decodable {
    struct Log: Decodable {
        var entries: [LossyEntry]
    }

    /// One entry, or why it could not be read: a broken entry is reported and the rest imported.
    struct LossyEntry: Decodable {
        var entry: Result<Entry, DecodingError>
        /// The request's URL when the entry is broken elsewhere, to name it.
        var url: String?
        /// How deep the entry is in the file (`log.entries[3]`): an error names its place from there.
        var depth: Int

        init(from decoder: any Decoder) throws {
            depth = decoder.codingPath.count
            let container = try decoder.singleValueContainer()
            do {
                entry = .success(try container.decode(Entry.self))
            } catch let error as DecodingError {
                entry = .failure(error)
            }
            url = try? container.decode(URLOnly.self).request.url
        }

        private struct URLOnly: Decodable {
            struct Request: Decodable { var url: String }
            var request: Request
        }
    }

    struct Entry: Decodable {
        var request: Request
        /// Missing in some exports of a request that never got an answer.
        var response: Response?
        /// When the request was sent (ISO 8601): a WebSocket's first message is timed from it.
        var startedDateTime: String?
        /// Chrome's `_resourceType` (`websocket` for an upgrade).
        var resourceType: String?
        /// Chrome's `_webSocketMessages`: a WebSocket's messages both ways, in order.
        var webSocketMessages: [WebSocketMessage]?

        enum CodingKeys: String, CodingKey {
            case request, response, startedDateTime
            case resourceType = "_resourceType"
            case webSocketMessages = "_webSocketMessages"
        }
    }

    /// One message of Chrome's `_webSocketMessages`: `send` is the app's, `receive` the server's;
    /// `time` in seconds since 1970; `opcode` 1 (text) or 2 (binary, `data` in base64).
    struct WebSocketMessage: Decodable {
        var type: String
        var time: Double
        var opcode: Int
        var data: String?
    }

    struct Request: Decodable {
        var method: String
        var url: String
    }

    struct Response: Decodable {
        /// 0 in Chrome's and Safari's exports of a request that failed or was blocked.
        var status: Int
        var headers: [Header]?
        var content: Content?
    }

    struct Header: Decodable {
        var name: String
        var value: String
    }

    /// The body. `text` is already decoded from any `Content-Encoding` (HAR's `size` is the
    /// decoded length, `bodySize` the bytes on the wire); `encoding` is `base64` for a binary body.
    struct Content: Decodable {
        var mimeType: String?
        var text: String?
        var encoding: String?
    }

    var log: Log
}
