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
