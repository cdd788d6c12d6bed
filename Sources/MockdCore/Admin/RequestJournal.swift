#if canImport(FoundationEssentials)
import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
import Foundation
#endif
import Synchronization

/// The last requests mockd answered, oldest first, for tests to verify what an app sent
/// (`GET /__mockd/requests`). A bounded ring: a long CI run cannot grow memory.
public final class RequestJournal: Sendable {
    /// A class, not a struct: entries are written once and only passed around, and moving one
    /// reference into the ring is cheaper per request than copying a dozen fields.
    public final class Entry: Sendable {
        /// Seconds since 1970 (UTC).
        public let time: Double
        public let method: String
        public let path: String
        public let query: String
        public let headers: [HTTPHeader]
        /// Capped at `bodyLimit` bytes.
        public let body: [UInt8]
        public let bodyTruncated: Bool
        public let scenario: String
        public let session: String?
        public let source: String
        public let status: Int
        public let durationMicroseconds: UInt64

        public init(time: Double, method: String, path: String, query: String, headers: [HTTPHeader], body: [UInt8], bodyTruncated: Bool,
                    scenario: String, session: String?, source: String, status: Int, durationMicroseconds: UInt64) {
            self.time = time
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
            self.bodyTruncated = bodyTruncated
            self.scenario = scenario
            self.session = session
            self.source = source
            self.status = status
            self.durationMicroseconds = durationMicroseconds
        }
    }

    public let capacity: Int
    public let bodyLimit: Int
    private let ring: Mutex<Ring>

    struct Ring {
        var entries: [Entry] = []
        /// Where the next entry goes once the ring is full.
        var next = 0
    }

    public init(capacity: Int = 1000, bodyLimit: Int = 64 * 1024) {
        self.capacity = max(0, capacity)
        self.bodyLimit = max(0, bodyLimit)
        self.ring = Mutex(Ring())
    }

    public var isEnabled: Bool { capacity > 0 }

    public func append(_ entry: Entry) {
        guard capacity > 0 else { return }
        ring.withLock { ring in
            if ring.entries.count < capacity {
                ring.entries.append(entry)
            } else {
                ring.entries[ring.next] = entry
                ring.next = (ring.next + 1) % capacity
            }
        }
    }

    /// Oldest first.
    public func entries() -> [Entry] {
        ring.withLock { ring in
            Array(ring.entries[ring.next...] + ring.entries[..<ring.next])
        }
    }

    public func clear() {
        ring.withLock { $0 = Ring() }
    }

    /// Entries matching the filters, oldest first; `limit` keeps the newest N.
    public func entries(method: String? = nil, path: String? = nil, session: String? = nil, limit: Int? = nil) -> [Entry] {
        let pathGlob = path.map(Glob.init)
        var selected = entries().filter { entry in
            (method == nil || entry.method == method!.uppercased())
                && (pathGlob == nil || pathGlob!.matches(entry.path))
                && (session == nil || entry.session == session)
        }
        if let limit, limit >= 0, selected.count > limit { selected.removeFirst(selected.count - limit) }
        return selected
    }
}

extension RequestJournal.Entry {
    var json: JSONValue {
        var headerMembers: [(key: String, value: JSONValue)] = []
        for header in headers {
            if let index = headerMembers.firstIndex(where: { $0.key == header.name }), case .string(let existing) = headerMembers[index].value {
                headerMembers[index].value = .string(existing + ", " + header.value)
            } else {
                headerMembers.append((header.name, .string(header.value)))
            }
        }
        var members: [(key: String, value: JSONValue)] = [
            ("time", .string(Self.iso8601(time))),
            ("method", .string(method)),
            ("path", .string(path)),
            ("query", .string(query)),
            ("headers", .object(headerMembers)),
            ("body", .string(String(decoding: body, as: UTF8.self))),
        ]
        if bodyTruncated { members.append(("bodyTruncated", true)) }
        members += [
            ("scenario", .string(scenario)),
            ("session", session.map { .string($0) } ?? .null),
            ("source", .string(source)),
            ("status", .number(status)),
            ("durationMs", .number(String(Double(durationMicroseconds) / 1000))),
        ]
        return .object(members)
    }

    /// `2026-11-22T11:30:00.123Z`
    static func iso8601(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
