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

        package init(session: String?, resource: String, seed: String) {
            self.session = session
            self.resource = resource
            self.seed = seed
        }
    }

    /// One lock for every copy: a write is a few dictionary operations, far shorter than the
    /// request around it, and one lock keeps ids unique and counts exact under concurrent writers.
    private let copies = Lock<[Key: ResourceItems]>([:])
    /// Told of every change to the copies of requests without a session (`--state-dir`).
    private let saving: (any ResourceStateSaving)?

    package init(saving: (any ResourceStateSaving)? = nil) {
        self.saving = saving
    }

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
        let (result, changed) = copies.withLock { copies in
            if let copy = copies[key], copy.fingerprint == start.fingerprint {
                // In place: the copy is not duplicated for the change.
                return change(&copies[key]!)
            }
            var copy = start
            let (result, changed) = change(&copy)
            if changed { copies[key] = copy }
            return (result, changed)
        }
        if changed, session == nil, let saving { saving.changed(key, resource) }
        return result
    }

    /// Back to the seeds: one session's copies, or (nil) every copy, global ones included.
    package func removeAll(session: String?) {
        let removed = copies.withLock { copies in
            if let session {
                copies = copies.filter { $0.key.session != session }
                return [Key]()
            }
            defer { copies.removeAll() }
            return copies.keys.filter { $0.session == nil }
        }
        for key in removed { saving?.changed(key, nil) }
    }

    /// After a reload: copies whose resource is gone, or whose seed file changed, are dropped.
    /// Returns the paths of the resources whose state was reset because their seed changed.
    package func adopt(_ resources: ResourceIndex) -> [String] {
        let current = Dictionary(resources.all.map { ($0.identity, $0) }) { first, _ in first }
        let (reset, dropped) = copies.withLock { copies in
            var reset: Set<String> = []
            var dropped: [Key] = []
            copies = copies.filter { key, copy in
                var kept = false
                if let resource = current[key.resource] {
                    kept = resource.seeds[key.seed]?.fingerprint == copy.fingerprint
                    if !kept { reset.insert(resource.path) }
                }
                if !kept, key.session == nil { dropped.append(key) }
                return kept
            }
            return (reset.sorted(), dropped)
        }
        for key in dropped { saving?.changed(key, nil) }
        return reset
    }

    /// A copy of requests without a session, as a saved state had it at start.
    package func restore(_ items: ResourceItems, of resource: Resource, seed: String) {
        copies.withLock { $0[Key(session: nil, resource: resource.identity, seed: seed)] = items }
    }

    /// A copy as it is now; nil when there is none (its requests see the seed).
    package func copy(_ key: Key) -> ResourceItems? {
        copies.withLock { $0[key] }
    }

    /// Every copy and its item count, for the admin API.
    package func counts() -> [(key: Key, count: Int)] {
        copies.withLock { copies in copies.map { (key: $0.key, count: $0.value.count) } }
    }
}

/// Where the changes to copies of requests without a session go to be saved (`--state-dir`).
/// Called on the request's thread after the change: it notes the copy and returns, and reads
/// it later (`ResourceStore.copy`) off the request path.
package protocol ResourceStateSaving: Sendable {
    /// `key`'s copy changed; `resource` is nil when the copy was removed (a reset, a reload).
    func changed(_ key: ResourceStore.Key, _ resource: Resource?)
}
