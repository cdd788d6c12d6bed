#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import MockdLock
import Synchronization

/// The last requests mockd answered, oldest first, for tests to verify what an app sent
/// (`GET /__mockd/requests`). A bounded ring: a long CI run cannot grow memory.
package final class RequestJournal: Sendable {
    /// A class, not a struct: entries are written once and only passed around, and moving one
    /// reference into the ring is cheaper per request than copying a dozen fields.
    package final class Entry: Sendable {
        /// Seconds since 1970 (UTC).
        package let time: Double
        package let method: String
        package let path: String
        package let query: String
        package let headers: [HTTPHeader]
        /// Capped at `bodyLimit` bytes.
        package let body: [UInt8]
        package let bodyTruncated: Bool
        package let scenario: String
        package let session: String?
        /// What answered, as people read it (`file users/mock_api_users_get.json`).
        package let source: String
        /// What kind of source answered, for programs to decide on (`file`, `notFound`, `proxy`…).
        package let kind: Origin.Kind
        package let status: Int
        package let durationMicroseconds: UInt64
        /// The answer, when it was built for this request (a 404 report, an upstream's answer, a
        /// template), capped like `body`; nil for prepared answers, which the snapshot holds.
        package let response: Response?
        /// Set for a WebSocket message (`kind` `message`): which way and on which connection; the
        /// payload is `body`.
        package let message: Message?
        /// Set for a push mockd sent (`kind` `push`): where to and what came of it; the payload is `body`.
        package let push: Push?

        package init(
            time: Double, method: String, path: String, query: String, headers: [HTTPHeader], body: [UInt8], bodyTruncated: Bool,
            scenario: String, session: String?, source: String, kind: Origin.Kind, status: Int, durationMicroseconds: UInt64,
            response: Response? = nil, message: Message? = nil, push: Push? = nil
        ) {
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
            self.kind = kind
            self.status = status
            self.durationMicroseconds = durationMicroseconds
            self.response = response
            self.message = message
            self.push = push
        }
    }

    /// A push's facts beside its payload.
    package struct Push: Sendable {
        package let device: String
        package let bundleID: String
        /// The payload file's name; nil for a payload given whole.
        package let name: String?
        package let outcome: PushOutcome

        package init(device: String, bundleID: String, name: String?, outcome: PushOutcome) {
            self.device = device
            self.bundleID = bundleID
            self.name = name
            self.outcome = outcome
        }
    }

    /// A WebSocket message's facts beside its payload.
    package struct Message: Sendable {
        /// `in`: the app sent it; `out`: mockd did.
        package let direction: String
        package let connection: Int
        package let binary: Bool
        /// The whole payload's size (the journal keeps at most `bodyLimit` bytes of it).
        package let size: Int

        package init(direction: String, connection: Int, binary: Bool, size: Int) {
            self.direction = direction
            self.connection = connection
            self.binary = binary
            self.size = size
        }
    }

    /// What a built answer sent, for the dashboard (the file a 404 looked for, an upstream body to save as a mock).
    package struct Response: Sendable {
        package let contentType: String?
        package let body: [UInt8]

        package init(contentType: String?, body: [UInt8]) {
            self.contentType = contentType
            self.body = body
        }
    }

    /// An entry and its number: numbers grow by one per entry and survive `clear`, so a reader
    /// that remembers the last one it saw asks for what came after (`GET /__mockd/events`).
    package struct Numbered: Sendable {
        package let id: UInt64
        package let entry: Entry
    }

    package let capacity: Int
    package let bodyLimit: Int
    private let ring: Lock<Ring>

    struct Ring {
        var entries: [Numbered] = []
        /// Where the next entry goes once the ring is full.
        var next = 0
        /// The number of the newest entry ever appended (0: none yet).
        var lastID: UInt64 = 0
    }

    /// The journal `mockd serve` keeps unless told otherwise (`--journal-size`, `--journal-body-bytes`).
    package static let defaultCapacity = 1000
    package static let defaultBodyLimit = 64 * 1024

    package init(capacity: Int = RequestJournal.defaultCapacity, bodyLimit: Int = RequestJournal.defaultBodyLimit) {
        self.capacity = max(0, capacity)
        self.bodyLimit = max(0, bodyLimit)
        self.ring = Lock(Ring())
    }

    package var isEnabled: Bool { capacity > 0 }

    package func append(_ entry: Entry) {
        guard capacity > 0 else { return }
        ring.withLock { ring in
            // Numbered under the lock: numbers are in the ring's order, so "after N" misses none.
            ring.lastID += 1
            let numbered = Numbered(id: ring.lastID, entry: entry)
            if ring.entries.count < capacity {
                ring.entries.append(numbered)
            } else {
                ring.entries[ring.next] = numbered
                ring.next = (ring.next + 1) % capacity
            }
        }
    }

    /// Oldest first.
    package func entries() -> [Entry] {
        numberedEntries().map(\.entry)
    }

    /// Oldest first, with their numbers.
    package func numberedEntries() -> [Numbered] {
        ring.withLock { ring in
            Array(ring.entries[ring.next...] + ring.entries[..<ring.next])
        }
    }

    /// The entries numbered after `id`, oldest first, at most the newest `limit`.
    package func entries(after id: UInt64, limit: Int) -> [Numbered] {
        ring.withLock { ring in
            guard ring.lastID > id else { return [] }
            let ordered = ring.entries[ring.next...] + ring.entries[..<ring.next]
            return Array(ordered.filter { $0.id > id }.suffix(max(0, limit)))
        }
    }

    /// The number of the newest entry ever appended (0: none yet).
    package var lastID: UInt64 { ring.withLock { $0.lastID } }

    package func clear() {
        ring.withLock { $0 = Ring(lastID: $0.lastID) }
    }

    /// Removes one session's entries (`X-Mock-Session` or its port); returns how many. The rest
    /// keep their order and numbers.
    @discardableResult
    package func clear(session: String) -> Int {
        ring.withLock { ring in
            let ordered = ring.entries[ring.next...] + ring.entries[..<ring.next]
            let kept = ordered.filter { $0.entry.session != session }
            let removed = ring.entries.count - kept.count
            ring = Ring(entries: Array(kept), next: 0, lastID: ring.lastID)
            return removed
        }
    }

    /// The entries `filter` selects, oldest first, at most the newest `limit`.
    package func numberedEntries(_ filter: RequestFilter, limit: Int? = nil) -> [Numbered] {
        let matches = filter.matcher()
        var selected = numberedEntries().filter { matches($0.entry) }
        if let limit, limit >= 0, selected.count > limit { selected.removeFirst(selected.count - limit) }
        return selected
    }

    /// How many entries `matches` selects, without copying the ring (a waiting test asks on
    /// every delivery of news).
    func count(where matches: (Entry) -> Bool) -> Int {
        ring.withLock { ring in ring.entries.reduce(0) { $0 + (matches($1.entry) ? 1 : 0) } }
    }
}

extension RequestJournal.Numbered {
    /// The entry as `GET /__mockd/requests` and `GET /__mockd/events` show it, with its `id` first.
    var json: JSONValue {
        guard case .object(let members) = entry.json else { return entry.json }
        return .object([("id", .number(String(id)))] + members)
    }
}

extension RequestJournal.Entry {
    var json: JSONValue {
        if let message { return messageJSON(message) }
        var headerMembers: [(key: String, value: JSONValue)] = []
        for header in headers {
            if let index = headerMembers.firstIndex(where: { $0.key == header.name }),
                case .string(let existing) = headerMembers[index].value
            {
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
            ("kind", .string(kind.rawValue)),
            ("status", .number(status)),
            ("durationMs", .number(String(Double(durationMicroseconds) / 1000))),
        ]
        if let push { members.append(("push", pushJSON(push))) }
        if let response {
            members.append(
                (
                    "response",
                    .object([
                        ("contentType", response.contentType.map { .string($0) } ?? .null),
                        ("body", .string(String(decoding: response.body, as: UTF8.self))),
                    ])
                ))
        }
        return .object(members)
    }

    /// A push's facts: the payload file, the simulator and app, what simctl said.
    private func pushJSON(_ push: RequestJournal.Push) -> JSONValue {
        .object(
            [
                ("name", push.name.map { .string($0) } ?? .null), ("device", .string(push.device)),
                ("bundleId", .string(push.bundleID)),
            ] + push.outcome.members)
    }

    /// A WebSocket message as `GET /__mockd/ws/messages` shows it.
    private func messageJSON(_ message: RequestJournal.Message) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("time", .string(Self.iso8601(time))), ("kind", .string(kind.rawValue)), ("direction", .string(message.direction)),
            ("connection", .number(message.connection)), ("session", session.map { .string($0) } ?? .null), ("path", .string(path)),
            ("size", .number(message.size)),
        ]
        members.append(
            message.binary
                ? ("base64", .string(Data(body).base64EncodedString())) : ("text", .string(String(decoding: body, as: UTF8.self))))
        if bodyTruncated { members.append(("truncated", true)) }
        return .object(members)
    }

    /// `2026-11-22T11:30:00.123Z`
    static func iso8601(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
