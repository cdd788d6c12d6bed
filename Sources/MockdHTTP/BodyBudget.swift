import MockdCore
import Synchronization

/// Bounds the memory held by request bodies across all connections (`--max-body-memory`).
///
/// A body is held only as far as something reads it: whole when a route matches on bodies or
/// renders a template, when the request goes to the admin API or may go upstream (`--proxy`);
/// otherwise only what the journal keeps, the rest counted and dropped. What is held is
/// reserved here; past the budget the request gets 503 with `Retry-After`, and the
/// reservation is returned when the request completes.
final class BodyBudget: Sendable {
    let limit: Int
    private let used = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    var inUse: Int { used.load(ordering: .relaxed) }

    /// Takes `bytes` from the budget; false (and nothing taken) when they do not fit.
    func reserve(_ bytes: Int) -> Bool {
        let after = used.add(bytes, ordering: .relaxed).newValue
        guard after <= limit else {
            used.subtract(bytes, ordering: .relaxed)
            return false
        }
        return true
    }

    func release(_ bytes: Int) {
        if bytes > 0 { used.subtract(bytes, ordering: .relaxed) }
    }
}

extension HTTPServer {
    /// On the handler's first call: how much of this request's body to hold, decided on its head
    /// (whether the admin API takes it, and the configuration it is served with): all of it when
    /// anything may read it (a route, a resource, an OpenAPI operation, a stub, the upstream, the
    /// admin API), else what the journal keeps.
    func bodyKeepLimit(isAdmin: Bool, serving: ServingState, hasBody: Bool) -> Int {
        if !hasBody { return Int.max }
        if missHandler != nil || serving.snapshot.readsRequestBodies || isAdmin { return Int.max }
        // Stubs come and go at run time, after the snapshot was built: while any exists, one may
        // read the body (one relaxed load).
        if !runtime.stubs.isEmpty { return Int.max }
        // One byte past the journal's cap, so the journal still sees that the body was longer.
        return journal.isEnabled ? journal.bodyLimit + 1 : 0
    }

    /// On the handler's first call, for a body of a declared `Content-Length`: what will be held
    /// is taken from the budget at once, and the array sized to it. When it does not fit, none
    /// of it is held (`overBudget`): taking it chunk by chunk, a hundred large bodies would each
    /// take a slice and all be refused half-way.
    func reserveDeclaredBody(length: Int, state: RequestState) {
        guard let keepLimit = state.reader?.keepLimit else { return }
        let keep = min(length, keepLimit)
        guard keep > 0 else { return }
        guard bodyBudget.reserve(keep) else {
            state.reader?.overBudget = true
            return
        }
        state.heldBodyBytes = keep
        state.reader?.body.reserveCapacity(keep)
    }

    /// One chunk of the body: counted, held as far as needed and the budget allows. The budget
    /// counts the array's capacity, not its count: growing it doubles the allocation, and memory
    /// is what the budget bounds.
    func hold(_ chunk: UnsafePointer<CChar>, count: Int, state: RequestState) {
        guard var reader = state.takeReader() else { return }
        defer { state.reader = reader }  // moved out and back: the array grows in place, not copied
        reader.bytesSeen += count
        let room = reader.keepLimit - reader.body.count
        guard room > 0, !reader.overBudget else { return }
        let kept = min(room, count)
        let needed = reader.body.count + kept
        if needed > state.heldBodyBytes {
            // A chunked body (or one longer than declared): grow geometrically, as the array
            // would, but never past what will be kept, and reserve the growth first.
            let capacity = min(max(needed, state.heldBodyBytes * 2, 4096), reader.keepLimit)
            guard bodyBudget.reserve(capacity - state.heldBodyBytes) else {
                reader.overBudget = true
                return
            }
            state.heldBodyBytes = capacity
            reader.body.reserveCapacity(capacity)
        }
        chunk.withMemoryRebound(to: UInt8.self, capacity: kept) { bytes in
            reader.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: kept))
        }
    }

    /// The 503 for a body that did not fit in `--max-body-memory`.
    var bodyBudgetRefusal: BuiltResponse {
        ErrorAnswer.bodyMemoryFull(limit: bodyBudget.limit).response(origin: .refusal("body memory"), layout: .compact)
    }
}
