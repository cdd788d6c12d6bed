import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// mockd processes a test starts die with the test run, even when it is killed (SIGKILL, a CI
/// timeout) and no `defer` runs: on Linux each is started through `setpriv --pdeathsig KILL`,
/// so the kernel kills it when the thread that spawned it ends. That thread is one that lives
/// as long as the test process (not a pool thread, which may end while the child still runs).
enum OrphanGuard {
    static let setpriv = "/usr/bin/setpriv"

    /// `setpriv --pdeathsig KILL -- executable arguments…` where setpriv exists (it execs, so
    /// the PID is mockd's); the command itself elsewhere.
    static func command(_ executable: String, _ arguments: [String]) -> (executable: String, arguments: [String]) {
        #if os(Linux)
            if FileManager.default.isExecutableFile(atPath: setpriv) {
                return (setpriv, ["--pdeathsig", "KILL", "--", executable] + arguments)
            }
        #endif
        return (executable, arguments)
    }

    /// Runs `start` on the spawner thread and waits for it.
    static func spawn(_ start: @escaping @Sendable () throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        spawner.submit {
            do { try start() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
    }

    private final class Outcome: @unchecked Sendable {  // written before `done.signal()`, read after `wait()`
        var error: (any Error)?
    }

    private static let spawner = SpawnerThread()
}

/// One thread, started on first use and never ended, that runs what it is given in order.
private final class SpawnerThread: @unchecked Sendable {  // `work` is guarded by `lock`
    private let lock = NSCondition()
    private var work: [@Sendable () -> Void] = []

    init() {
        let thread = Thread { [self] in
            while true {
                lock.lock()
                while work.isEmpty { lock.wait() }
                let next = work.removeFirst()
                lock.unlock()
                next()
            }
        }
        thread.name = "mockd-test-spawner"
        thread.start()
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        lock.lock()
        work.append(job)
        lock.signal()
        lock.unlock()
    }
}
