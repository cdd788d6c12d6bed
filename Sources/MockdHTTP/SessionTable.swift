import MockdCore
import MockdLock
import Synchronization

/// Session ports by session id: an id is reserved while its daemon starts (outside the lock,
/// so nothing that takes it waits on a bind or a thread start), then open with its daemon.
/// Shutdown empties it: a daemon started meanwhile is not kept, and stops when released.
final class SessionTable: Sendable {
    enum Slot: Sendable {
        case opening
        case open(port: SessionPort, daemon: Daemon)

        var port: SessionPort? { if case .open(let port, _) = self { port } else { nil } }
        var daemon: Daemon? { if case .open(_, let daemon) = self { daemon } else { nil } }
    }

    private let slots = Lock<[String: Slot]>([:])

    /// Reserves `id` (nil: the first `sN` not taken) unless it is taken or `limit` sessions are
    /// open. Returns the id and the ports open sessions hold.
    func reserve(_ id: String?, limit: Int) -> Result<(id: String, used: Set<Int>), ErrorAnswer> {
        slots.withLock { slots -> Result<(id: String, used: Set<Int>), ErrorAnswer> in
            let id = id ?? Self.nextID(slots)
            if slots[id] != nil {
                return .failure(
                    ErrorAnswer(409, "session \(JSONText.quoted(id)) exists; DELETE /__mockd/sessions/\(id) first, or choose another id"))
            }
            guard slots.count < limit else {
                return .failure(
                    ErrorAnswer(
                        503,
                        "\(slots.count) sessions are open, the limit (--max-sessions \(limit)); close one with DELETE /__mockd/sessions/ID"
                    ))
            }
            slots[id] = .opening
            return .success((id, Set(slots.values.compactMap { $0.port?.port })))
        }
    }

    /// The reserved `id` is open on `daemon`, which now runs; false when shutdown emptied the
    /// table meanwhile (the daemon is not kept).
    func open(_ id: String, _ port: SessionPort, daemon: Daemon) -> Bool {
        slots.withLock { slots -> Bool in
            guard slots[id] != nil else { return false }
            slots[id] = .open(port: port, daemon: daemon)
            daemon.sessionPort?.lifecycle.move(from: .starting, to: .running)
            return true
        }
    }

    /// A reservation whose daemon could not start.
    func cancel(_ id: String) {
        _ = slots.withLock { $0.removeValue(forKey: id) }
    }

    /// Takes an open session out of the table for its close; nil when there is none (or it is still opening).
    func close(_ id: String) -> (port: SessionPort, daemon: Daemon)? {
        slots.withLock { slots -> (port: SessionPort, daemon: Daemon)? in
            guard case .open(let port, let daemon) = slots[id] else { return nil }
            slots.removeValue(forKey: id)
            return (port, daemon)
        }
    }

    /// Empties the table (shutdown); returns the open sessions' daemons.
    func takeAll() -> [Daemon] {
        slots.withLock { slots in
            defer { slots = [:] }
            return slots.values.compactMap(\.daemon)
        }
    }

    /// The open session ports, by id.
    var ports: [SessionPort] {
        slots.withLock { $0.values.compactMap(\.port) }.sorted { $0.id < $1.id }
    }

    /// `s1`, `s2`…: the first not taken.
    private static func nextID(_ slots: [String: Slot]) -> String {
        var number = slots.count + 1
        while slots["s\(number)"] != nil { number += 1 }
        return "s\(number)"
    }
}
