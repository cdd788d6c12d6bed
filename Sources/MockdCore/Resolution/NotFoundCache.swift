import MockdLock
import Synchronization

/// What a server remembers about misses on one snapshot, so the snapshot itself stays
/// immutable: the file names by length for "a small edit away", and the last 404 reports.
/// One per server and snapshot (the resolver holds it); dropped with them on reload.
package final class NotFoundCache: Sendable {
    /// Reports kept before the cache starts over.
    package static let limit = 512

    /// Three strings hashed in place: no key string is built for each miss.
    struct Key: Hashable {
        let method: String
        let path: String
        let scenario: String
    }

    private let names = Lock<[Int: [String]]?>(nil)
    private let reports = Lock<(byKey: [Key: BuiltResponse], nextID: Int)>(([:], 0))

    package init() {}

    /// File names by length (lengths bound the edit distance). Built by the first miss that
    /// needs it, not at load: it would add to every start and reload, and many runs never ask.
    func namesByLength(of snapshot: Snapshot) -> [Int: [String]] {
        names.withLock { index in
            if let index { return index }
            var byLength: [Int: [String]] = [:]
            for name in snapshot.files.keys { byLength[name.utf8.count, default: []].append(name) }
            index = byLength
            return byLength
        }
    }

    func report(for key: Key) -> BuiltResponse? {
        reports.withLock { $0.byKey[key] }
    }

    /// Keeps `report` under `key`, numbered (`reuseID`) so the adapter can keep what it builds from it.
    func keep(_ report: BuiltResponse, for key: Key) -> BuiltResponse {
        reports.withLock { cache in
            if cache.byKey.count >= Self.limit { cache.byKey.removeAll(keepingCapacity: true) }
            var kept = report
            kept.reuseID = cache.nextID
            cache.nextID += 1
            cache.byKey[key] = kept
            return kept
        }
    }
}
