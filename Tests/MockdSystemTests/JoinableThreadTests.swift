import Dispatch
import MockdSystem
import Synchronization
import Testing

/// The thread helper the file watcher, the libcurl loop and the log sink's flusher run on.
@Suite(.timeLimit(.minutes(1)))
struct JoinableThreadTests {
    @Test func runsTheBodyOnceOnAThreadOfItsOwnAndJoinWaitsForIt() throws {
        let runs = Atomic<Int>(0)
        let sawItselfCurrent = Atomic<Bool>(false)
        let release = DispatchSemaphore(value: 0)
        let slot = ThreadSlot()
        let thread = try JoinableThread.spawn {
            release.wait()  // holds the body until the test has looked at the thread from outside
            sawItselfCurrent.store(slot.thread?.isCurrent ?? false, ordering: .sequentiallyConsistent)
            runs.add(1, ordering: .sequentiallyConsistent)
        }.get()
        slot.thread = thread
        #expect(!thread.isCurrent)
        let runsBefore = runs.load(ordering: .sequentiallyConsistent)
        #expect(runsBefore == 0)
        release.signal()
        thread.join()
        // join returned: the body has finished, exactly once.
        let runsAfter = runs.load(ordering: .sequentiallyConsistent)
        let wasCurrent = sawItselfCurrent.load(ordering: .sequentiallyConsistent)
        #expect(runsAfter == 1)
        #expect(wasCurrent)
    }

    @Test func aDetachedThreadRunsToItsEnd() throws {
        let done = DispatchSemaphore(value: 0)
        let value = Atomic<Int>(0)
        let thread = try JoinableThread.spawn {
            value.store(42, ordering: .sequentiallyConsistent)
            done.signal()
        }.get()
        thread.detach()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let stored = value.load(ordering: .sequentiallyConsistent)
        #expect(stored == 42)
    }

    @Test func aThreadCanDetachItselfWhileItRuns() throws {
        // The file watcher's stop() from inside onChange: the thread cannot join itself.
        let done = DispatchSemaphore(value: 0)
        let slot = ThreadSlot()
        let start = DispatchSemaphore(value: 0)
        let thread = try JoinableThread.spawn {
            start.wait()
            if let me = slot.thread, me.isCurrent { me.detach(); done.signal() }
        }.get()
        slot.thread = thread
        start.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test func manyThreadsEachRunTheirOwnBody() throws {
        let sum = Atomic<Int>(0)
        let threads = try (1...20).map { index in
            try JoinableThread.spawn { sum.add(index, ordering: .sequentiallyConsistent) }.get()
        }
        for thread in threads { thread.join() }
        let total = sum.load(ordering: .sequentiallyConsistent)
        #expect(total == 210)
    }
}

/// Hands a thread its own handle (set after spawn returns; read after a semaphore).
private final class ThreadSlot: @unchecked Sendable {
    // @unchecked: written before the semaphore the thread waits on is signalled, read after.
    var thread: JoinableThread?
}

extension JoinableThread.StartError: CustomStringConvertible {
    public var description: String { "pthread_create failed with \(code)" }
}
