import MockdLock
import Synchronization

/// What requests wrote to resources: a copy per session (and one for requests without a
/// session), each made from its seed on that session's first write, so a session that only
/// reads costs nothing and parallel tests never see each other's items. Kept outside the
/// snapshot: a reload keeps it, except where the seed it started from changed.
package final class ResourceStore: Sendable {
    package struct Key: Hashable, Sendable {
        /// nil: requests without a session.
        package let session: String?
        /// `Resource.identity`.
        package let resource: String
        /// "" for the seed file, else the scenario whose overlay seeded it.
        package let seed: String
    }

    /// One lock for every copy: a write is a few dictionary operations, far shorter than the
    /// request around it, and one lock keeps ids unique and counts exact under concurrent writers.
    private let copies = Lock<[Key: ResourceItems]>([:])

    package init() {}

    /// The items `session` sees: its copy, else the seed. A copy of a seed that has since
    /// changed (a reload) is not used.
    func items(_ resource: Resource, seed: String, session: String?) -> ResourceItems {
        let start = resource.seeds[seed] ?? ResourceItems(integerIDs: true, nextInteger: 1, fingerprint: 0)
        let key = Key(session: session, resource: resource.identity, seed: seed)
        return copies.withLock { copies in
            guard let copy = copies[key], copy.fingerprint == start.fingerprint else { return start }
            return copy
        }
    }

    /// Changes `session`'s copy, making it from the seed when there is none yet. `change` says
    /// whether it changed anything: a refused write (a 404, a 409) makes no copy.
    func write<T>(_ resource: Resource, seed: String, session: String?, _ change: (inout ResourceItems) -> (T, changed: Bool)) -> T {
        let start = resource.seeds[seed] ?? ResourceItems(integerIDs: true, nextInteger: 1, fingerprint: 0)
        let key = Key(session: session, resource: resource.identity, seed: seed)
        return copies.withLock { copies in
            if let copy = copies[key], copy.fingerprint == start.fingerprint {
                // In place: the copy is not duplicated for the change.
                return change(&copies[key]!).0
            }
            var copy = start
            let (result, changed) = change(&copy)
            if changed { copies[key] = copy }
            return result
        }
    }

    /// Back to the seeds: one session's copies, or (nil) every copy, global ones included.
    package func removeAll(session: String?) {
        copies.withLock { copies in
            if let session { copies = copies.filter { $0.key.session != session } } else { copies.removeAll() }
        }
    }

    /// After a reload: copies whose resource is gone, or whose seed file changed, are dropped.
    /// Returns the paths of the resources whose state was reset because their seed changed.
    package func adopt(_ resources: ResourceIndex) -> [String] {
        let current = Dictionary(resources.all.map { ($0.identity, $0) }) { first, _ in first }
        return copies.withLock { copies in
            var reset: Set<String> = []
            copies = copies.filter { key, copy in
                guard let resource = current[key.resource] else { return false }
                if resource.seeds[key.seed]?.fingerprint == copy.fingerprint { return true }
                reset.insert(resource.path)
                return false
            }
            return reset.sorted()
        }
    }

    /// Every copy and its item count, for the admin API.
    package func counts() -> [(key: Key, count: Int)] {
        copies.withLock { copies in copies.map { (key: $0.key, count: $0.value.count) } }
    }
}
