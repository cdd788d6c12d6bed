import Foundation

/// Runs `body` as a task whose every step after an `await` resumes on a thread of its own, not
/// on Swift's cooperative pool. For tests that time something across an `await` (a client's
/// timeout, an upstream's): on Linux the pool has as many threads as cores, and while the suite
/// runs, hundreds of other tests' synchronous bodies queue on it; on a busy machine a resumed
/// task waited 20–28 s for its turn, so a 1 s timeout measured 28 s.
package func onOwnThread<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    let executor = OwnThreadExecutor()
    defer { executor.stop() }
    return try await withTaskExecutorPreference(executor) { try await body() }
}

/// `Task { body }` with its own thread (see `onOwnThread`), child tasks included: for requests
/// a test starts and then waits for against a deadline. A plain `Task` may not even start
/// before such a deadline when the pool is busy.
package func taskOnOwnThread<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
    let executor = OwnThreadExecutor()
    return Task(executorPreference: executor) {
        defer { executor.stop() }
        return try await body()
    }
}

/// A task executor with one thread that runs its jobs in order (see `onOwnThread`).
final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {  // jobs and stopping: under condition
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "onOwnThread"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The thread ends once it has run every job it was given. Called when the task no longer
    /// prefers this executor, so no new job comes.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
