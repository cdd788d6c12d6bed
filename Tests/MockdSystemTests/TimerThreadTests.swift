import Dispatch
import MockdSystem
import Synchronization
import Testing

/// The heap under ParkingLot's timers: order, same-deadline batches.
struct TimerHeapTests {
    @Test func entriesComeOutEarliestFirstWhateverTheOrderTheyWentIn() {
        var heap = TimerHeap<Int>()
        var generator = SystemRandomNumberGenerator()
        let deadlines = (0..<500).map { _ in UInt64.random(in: 0..<10_000, using: &generator) }
        for (index, deadline) in deadlines.enumerated() { heap.insert(deadline: deadline, index) }
        #expect(heap.count == 500)
        var out: [UInt64] = []
        while let first = heap.popFirst() {
            #expect(deadlines[first.action] == first.deadline)
            out.append(first.deadline)
        }
        #expect(out == deadlines.sorted())
        #expect(heap.isEmpty && heap.earliest == nil)
    }

    @Test func equalDeadlinesComeOutInTheOrderTheyWentIn() {
        var heap = TimerHeap<Int>()
        for index in 0..<100 { heap.insert(deadline: UInt64(index % 3), index) }
        var due: [Int] = []
        heap.popDue(upTo: 10, into: &due)
        let expected = (0..<100).filter { $0 % 3 == 0 } + (0..<100).filter { $0 % 3 == 1 } + (0..<100).filter { $0 % 3 == 2 }
        #expect(due == expected)
    }

    @Test func popDueTakesEveryDueEntryAndNothingLater() {
        var heap = TimerHeap<UInt64>()
        for deadline: UInt64 in [50, 10, 30, 30, 70, 20, 60, 40] { heap.insert(deadline: deadline, deadline) }
        var due: [UInt64] = []
        heap.popDue(upTo: 5, into: &due)
        #expect(due.isEmpty)
        heap.popDue(upTo: 30, into: &due)
        #expect(due == [10, 20, 30, 30])
        #expect(heap.earliest == 40 && heap.count == 4)
        due.removeAll()
        heap.popDue(upTo: .max, into: &due)
        #expect(due == [40, 50, 60, 70])
    }
}

/// The timer thread every server's ParkingLot shares.
@Suite(.timeLimit(.minutes(1)))
struct TimerThreadTests {
    @Test func actionsRunInDeadlineOrderAndNeverEarly() {
        let timer = TimerThread()
        defer { timer.stop() }
        let ran = Mutex<[(Int, UInt64)]>([])
        let done = DispatchSemaphore(value: 0)
        let start = TimerThread.now()
        // Scheduled latest first: each is the new earliest, so each wakes the thread.
        for (index, milliseconds) in [60, 40, 20, 0].enumerated() {
            timer.schedule(afterNanoseconds: milliseconds * 1_000_000) {
                ran.withLock { $0.append((index, TimerThread.now())) }
                if index == 0 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let order = ran.withLock { $0 }
        #expect(order.map(\.0) == [3, 2, 1, 0])
        for (index, at) in order {
            let wanted = UInt64([60, 40, 20, 0][index]) * 1_000_000
            #expect(at - start >= wanted)
        }
    }

    @Test func entriesDueTogetherRunInOneWakeInTheOrderTheyWereScheduled() {
        let timer = TimerThread()
        defer { timer.stop() }
        let ran = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let deadline = TimerThread.now() + 30_000_000
        for index in 0..<1_000 {
            timer.schedule(at: deadline) {
                ran.withLock { $0.append(index) }
                if index == 999 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(ran.withLock { $0 } == Array(0..<1_000))
    }

    @Test func withSlackAnEntryWaitsForTheLaterOnesWithinItAndTheyRunInOneWake() {
        let timer = TimerThread(slackNanoseconds: 300_000_000)
        defer { timer.stop() }
        let ran = Mutex<[(Int, UInt64)]>([])
        let done = DispatchSemaphore(value: 0)
        let start = TimerThread.now()
        // Due 200 ms and 340 ms from now: the first wake comes at 500 ms, and takes both. (Due
        // 10 ms from now, the first was overdue on a busy machine before the second was
        // scheduled, and the wake the second caused ran it.)
        for (index, milliseconds) in [200, 340].enumerated() {
            timer.schedule(at: start + UInt64(milliseconds) * 1_000_000) {
                ran.withLock { $0.append((index, TimerThread.now())) }
                if index == 1 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let order = ran.withLock { $0 }
        #expect(order.map(\.0) == [0, 1])
        // The first waited out its slack for the second, which was then due: neither ran early.
        #expect(order.allSatisfy { $0.1 - start >= 500_000_000 }, "\(order.map { $0.1 - start })")
    }

    @Test func anEarlierEntryWakesTheThreadSleepingForALaterOne() {
        let timer = TimerThread()
        defer { timer.stop() }
        let done = DispatchSemaphore(value: 0)
        timer.schedule(afterNanoseconds: 30_000_000_000) {}
        let start = TimerThread.now()
        timer.schedule(afterNanoseconds: 10_000_000) { done.signal() }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(TimerThread.now() - start < 5_000_000_000)
    }

    @Test func anActionCanScheduleAnother() {
        let timer = TimerThread()
        defer { timer.stop() }
        let done = DispatchSemaphore(value: 0)
        let count = Atomic<Int>(0)
        @Sendable func next() {
            if count.add(1, ordering: .sequentiallyConsistent).newValue == 20 { done.signal(); return }
            timer.schedule(afterNanoseconds: 1_000_000, next)
        }
        timer.schedule(afterNanoseconds: 0, next)
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test func stopJoinsTheThreadAndDropsWhatIsStillWaiting() {
        let timer = TimerThread()
        let ran = Atomic<Int>(0)
        for _ in 0..<10 { timer.schedule(afterNanoseconds: 60_000_000_000) { ran.add(1, ordering: .sequentiallyConsistent) } }
        let start = TimerThread.now()
        #expect(timer.stop() == 10)
        #expect(TimerThread.now() - start < 5_000_000_000)
        // Stopped: nothing more is taken, nothing runs.
        timer.schedule(afterNanoseconds: 0) { ran.add(1, ordering: .sequentiallyConsistent) }
        #expect(timer.stop() == 0)
        #expect(ran.load(ordering: .sequentiallyConsistent) == 0)
    }

    @Test func manyTimersStartAndStop() {
        // As the tests' many servers would if each had one: no thread is left behind.
        for _ in 0..<200 {
            let timer = TimerThread()
            let done = DispatchSemaphore(value: 0)
            timer.schedule(afterNanoseconds: 0) { done.signal() }
            #expect(done.wait(timeout: .now() + 10) == .success)
            timer.stop()
        }
    }
}
