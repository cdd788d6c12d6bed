import CMicroHTTPD
import MockdCore
import MockdLock
import Synchronization

/// What one server needs to serve one snapshot: the resolver (with this server's policy and
/// miss cache) and the libmicrohttpd responses built from the snapshot. Swapped whole on reload.
final class ServingState: Sendable {
    let snapshot: Snapshot
    let resolver: Resolver
    /// libmicrohttpd's responses by `PreparedResponse.id`, each made by the first request that
    /// needs it and kept until the snapshot goes: most of 10,000 files may never be asked for,
    /// and each response with its header copies takes memory, and time to make at load.
    /// One dense buffer of atomic pointers (0: not made yet), not an object each: a request
    /// reads one without touching a Swift object among 10,000 cold ones.
    private nonisolated(unsafe) let responses: UnsafeMutablePointer<Atomic<UInt>>
    /// `--cors` headers, added to each response as it is made.
    private let extraHeaders: [HTTPHeader]
    /// Responses built from reusable answers (cached 404 reports), by their `reuseID`: a
    /// repeated miss costs a lookup, not a new response. Bounded like the core's cache.
    private let reused = Lock<[Int: MHDResponse]>([:])

    init(snapshot: Snapshot, runtime: RuntimeState, policy: ResolutionPolicy, extraHeaders: [HTTPHeader], failedReload: FailedReload? = nil)
    {
        self.snapshot = snapshot
        self.resolver = Resolver(snapshot: snapshot, state: runtime, policy: policy, failedReload: failedReload)
        self.extraHeaders = extraHeaders
        responses = .allocate(capacity: max(1, snapshot.preparedResponses.count))
        for index in 0..<snapshot.preparedResponses.count { (responses + index).initialize(to: Atomic(0)) }
    }

    /// libmicrohttpd's response for `prepared`: made on its first request. Two threads may make
    /// it at once; one keeps its own, the other destroys its copy. Nil only when libmicrohttpd
    /// cannot allocate.
    func response(for prepared: PreparedResponse) -> OpaquePointer? {
        let slot = responses + prepared.id
        if let made = OpaquePointer(bitPattern: slot.pointee.load(ordering: .acquiring)) { return made }
        guard let made = MHDResponse.make(prepared: prepared, extraHeaders: extraHeaders) else { return nil }
        let (exchanged, original) = slot.pointee.compareExchange(
            expected: 0, desired: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(made))),
            ordering: .acquiringAndReleasing)
        if exchanged { return made }
        MHD_destroy_response(made)
        return OpaquePointer(bitPattern: original)
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
        // Drops mockd's reference to each made; requests still sending one keep theirs.
        for index in 0..<snapshot.preparedResponses.count {
            if let made = OpaquePointer(bitPattern: (responses + index).pointee.load(ordering: .acquiring)) { MHD_destroy_response(made) }
        }
        responses.deinitialize(count: snapshot.preparedResponses.count)
        responses.deallocate()
    }
}
