import CMicroHTTPD
import MockdCore
import MockdLock

/// What one server needs to serve one snapshot: the resolver (with this server's policy and
/// miss cache) and the libmicrohttpd responses built from the snapshot. Swapped whole on reload.
final class ServingState: Sendable {
    let snapshot: Snapshot
    let resolver: Resolver
    /// libmicrohttpd's responses by `PreparedResponse.id`, built once per snapshot and
    /// destroyed with it. Plain pointers in one dense array, not an object each: a request
    /// reads one without touching a Swift object (or its reference count) among 10,000 cold
    /// ones, and 10,000 files cost no 10,000 extra allocations.
    nonisolated(unsafe) let rawResponses: [OpaquePointer]
    /// Responses built from reusable answers (cached 404 reports), by their `reuseID`: a
    /// repeated miss costs a lookup, not a new response. Bounded like the core's cache.
    private let reused = Lock<[Int: MHDResponse]>([:])

    init(snapshot: Snapshot, runtime: RuntimeState, policy: ResolutionPolicy, extraHeaders: [HTTPHeader]) {
        self.snapshot = snapshot
        self.resolver = Resolver(snapshot: snapshot, state: runtime, policy: policy)
        self.rawResponses = snapshot.preparedResponses.map { prepared in
            guard let raw = MHDResponse.make(prepared: prepared, extraHeaders: extraHeaders) else {
                fatalError("libmicrohttpd could not create a response for \(prepared.source) (out of memory)")
            }
            return raw
        }
    }

    /// The response kept for `id`, else the one `make` builds (kept for the next request).
    func reusedResponse(_ id: Int, _ make: () -> MHDResponse?) -> MHDResponse? {
        reused.withLock { kept in
            if let response = kept[id] { return response }
            guard let made = make() else { return nil }
            if kept.count >= NotFoundCache.limit { kept.removeAll(keepingCapacity: true) }
            kept[id] = made
            return made
        }
    }

    deinit {
        // Drops mockd's reference to each; requests still sending one keep theirs.
        for raw in rawResponses { MHD_destroy_response(raw) }
    }
}
