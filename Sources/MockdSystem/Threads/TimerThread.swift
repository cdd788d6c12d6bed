#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Timers on one thread of their own: a binary min-heap of deadlines, and one condition-variable
/// wait until the earliest. Each wake takes every entry that is due and runs them in deadline
/// order, so the many server-sent-event streams due in the same instant cost one wake. Adding an
/// entry signals the thread only when it becomes the earliest one the thread is sleeping for;
/// a stream's next event (later than those already waiting) costs no system call.
/// A wake may come up to `slack` after the earliest deadline, so that deadlines close together
/// share it: 1,000 streams of 20 events a second are due about every 50 µs, and with one wake
/// a millisecond their resumes reach libmicrohttpd together instead of one wake (the timer's,
/// then the server's) each.
/// The actions run on the timer thread, one after the other: each must be short (a resume).
package final class TimerThread: @unchecked Sendable {
    // @unchecked: `heap`, `stopping` and `sleepingUntil` are only reached under `mutex`.

    /// The process's timer thread, started on first use and never stopped: every server's
    /// ParkingLot shares it, so the tests' hundreds of servers start no thread each.
    /// Its slack (1 ms) is lateness nobody sees in a delay, and well inside a stream's
    /// tolerance (events on time within 20 ms).
    package static let shared = TimerThread(slackNanoseconds: 1_000_000)

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var heap = TimerHeap<@Sendable () -> Void>()
    private var stopping = false
    /// The deadline the thread sleeps until (`.max`: no timer at all); 0 while it is awake, when
    /// it looks at the heap again before sleeping, so nobody needs to signal it.
    private var sleepingUntil: UInt64 = 0
    private var thread: JoinableThread?
    /// How late after the earliest deadline the thread may wake, to take later ones with it.
    private let slack: UInt64

    /// Starts the thread, which holds the timer until `stop` (a timer nobody stops, such as
    /// `shared`, lives as long as the process). Actions run never early, and at most about
    /// `slackNanoseconds` late on an idle machine.
    package init(slackNanoseconds: UInt64 = 0) {
        slack = slackNanoseconds
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        #if os(Linux)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        #else
            pthread_cond_init(condition, nil)
        #endif
        switch JoinableThread.spawn({ [self] in run() }) {
        case .success(let thread): self.thread = thread
        case .failure(let error): fatalError("mockd: cannot start the timer thread (pthread_create \(error.code))")
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Nanoseconds on the monotonic clock (the clock deadlines are on).
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs `action` on the timer thread once `nanoseconds` have passed (0 or less: as soon as
    /// the thread gets to it). Never early; after `stop`, never.
    package func schedule(afterNanoseconds nanoseconds: Int, _ action: @escaping @Sendable () -> Void) {
        schedule(at: Self.now() &+ UInt64(max(0, nanoseconds)), action)
    }

    /// Runs `action` on the timer thread once the monotonic clock reaches `deadline`.
    package func schedule(at deadline: UInt64, _ action: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        if !stopping {
            heap.insert(deadline: deadline, action)
            if deadline < sleepingUntil { pthread_cond_signal(condition) }
        }
        pthread_mutex_unlock(mutex)
    }

    /// Ends the thread and waits for it (not from an action); what is still waiting never runs.
    /// Returns how many actions were dropped.
    @discardableResult
    package func stop() -> Int {
        pthread_mutex_lock(mutex)
        stopping = true
        let dropped = heap.count
        heap = TimerHeap()
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
        thread?.join()
        thread = nil
        return dropped
    }

    private func run() {
        var due: [@Sendable () -> Void] = []
        pthread_mutex_lock(mutex)
        while !stopping {
            heap.popDue(upTo: Self.now(), into: &due)
            if !due.isEmpty {
                sleepingUntil = 0
                pthread_mutex_unlock(mutex)
                for action in due { action() }
                due.removeAll(keepingCapacity: true)
                pthread_mutex_lock(mutex)
                continue
            }
            guard let earliest = heap.earliest else {
                sleepingUntil = .max
                pthread_cond_wait(condition, mutex)
                sleepingUntil = 0
                continue
            }
            sleepingUntil = earliest
            let wake = earliest &+ slack
            #if os(Linux)
                var until = timespec(tv_sec: Int(wake / 1_000_000_000), tv_nsec: Int(wake % 1_000_000_000))
                pthread_cond_timedwait(condition, mutex, &until)
            #else
                let left = wake &- min(wake, Self.now())
                var wait = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
                pthread_cond_timedwait_relative_np(condition, mutex, &wait)
            #endif
            sleepingUntil = 0
        }
        pthread_mutex_unlock(mutex)
    }
}

/// A binary min-heap of deadlines with their actions; equal deadlines come out in the order
/// they went in.
package struct TimerHeap<Action> {
    private struct Entry {
        let deadline: UInt64
        let order: UInt64
        let action: Action
        func before(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && order < other.order)
        }
    }

    private var entries: [Entry] = []
    private var inserted: UInt64 = 0

    package init() {}

    package var count: Int { entries.count }
    package var isEmpty: Bool { entries.isEmpty }
    /// The earliest deadline.
    package var earliest: UInt64? { entries.first?.deadline }

    package mutating func insert(deadline: UInt64, _ action: Action) {
        inserted &+= 1
        entries.append(Entry(deadline: deadline, order: inserted, action: action))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].before(entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Takes the earliest entry.
    package mutating func popFirst() -> (deadline: UInt64, action: Action)? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let first = entries.removeLast()
        var parent = 0
        let count = entries.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            var smallest = left
            if left + 1 < count, entries[left + 1].before(entries[left]) { smallest = left + 1 }
            guard entries[smallest].before(entries[parent]) else { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return (first.deadline, first.action)
    }

    /// Takes every entry due by `now` (deadline at or before it), earliest first.
    package mutating func popDue(upTo now: UInt64, into due: inout [Action]) {
        while let first = entries.first, first.deadline <= now {
            due.append(popFirst()!.action)
        }
    }
}
