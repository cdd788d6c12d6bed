#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A command run to its end (`xcrun simctl push`): started with bytes on its standard input,
/// its standard output and error kept, its exit status read, and killed when it outlasts a
/// deadline. The caller's thread waits for it: call it off any thread that answers requests.
package enum CommandRun {
    /// How the command ended.
    package enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
        /// It outlasted the deadline and was killed.
        case timedOut
        /// It could not be started (no such file, not executable), with why.
        case notStarted(String)
    }

    package struct Result: Sendable {
        package let ending: Ending
        /// At most `outputLimit` bytes of each.
        package let standardOutput: [UInt8]
        package let standardError: [UInt8]
    }

    /// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments`, `input` on its
    /// standard input, this process's environment; waits at most `timeout` for it to end.
    package static func run(
        _ executable: String, _ arguments: [String], input: [UInt8], timeout: Duration, outputLimit: Int = 64 * 1024
    ) -> Result {
        var standardInput: [Int32] = [-1, -1], standardOutput: [Int32] = [-1, -1], standardError: [Int32] = [-1, -1]
        guard makePipe(&standardInput), makePipe(&standardOutput), makePipe(&standardError) else {
            let reason = String(cString: strerror(errno))
            for fd in standardInput + standardOutput + standardError where fd >= 0 { close(fd) }
            return Result(ending: .notStarted("no pipe: \(reason)"), standardOutput: [], standardError: [])
        }
        #if os(Linux)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies; the originals (close-on-exec) do not reach the child.
        posix_spawn_file_actions_adddup2(&actions, standardInput[0], 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput[1], 1)
        posix_spawn_file_actions_adddup2(&actions, standardError[1], 2)
        var pid: pid_t = 0
        let spawned = SpawnWords.withArgv(executable, arguments) {
            posix_spawnp(&pid, executable, &actions, nil, $0, SpawnWords.environment)
        }
        close(standardInput[0])
        close(standardOutput[1])
        close(standardError[1])
        guard spawned == 0 else {
            close(standardInput[1])
            close(standardOutput[0])
            close(standardError[0])
            return Result(
                ending: .notStarted("\(executable): \(String(cString: strerror(spawned)))"), standardOutput: [], standardError: [])
        }
        let deadline = ContinuousClock.now + timeout
        // A command that exits without reading its input makes the next write raise SIGPIPE,
        // which would end this process unless it ignores the signal (mockd serve does; a test
        // process or another caller may not).
        #if os(Linux)
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            var previousMask = sigset_t()
            pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
            defer { discardPipeSignal(&pipeSignal, restoring: &previousMask) }
        #else
            _ = fcntl(standardInput[1], F_SETNOSIGPIPE, 1)
        #endif
        var exchange = Exchange(
            input: input, inputFD: standardInput[1], outputFD: standardOutput[0], errorFD: standardError[0], outputLimit: outputLimit)
        var finished = exchange.run(until: deadline)
        exchange.closeAll()
        var status: Int32 = 0
        // Outputs closed: the command has as a rule exited; one that lingers still has until the deadline.
        if finished { finished = reap(pid, &status, until: deadline) }
        if !finished {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        let ending: Ending
        if !finished {
            ending = .timedOut
        } else if status & 0x7f == 0 {
            ending = .exited((status >> 8) & 0xff)  // WIFEXITED, WEXITSTATUS (macros Swift does not import)
        } else {
            ending = .signaled(status & 0x7f)
        }
        return Result(ending: ending, standardOutput: exchange.output, standardError: exchange.error)
    }

    #if os(Linux)
        /// A SIGPIPE this thread's writes left pending (blocked meanwhile) is taken, not
        /// delivered, and the thread's signal mask is restored.
        private static func discardPipeSignal(_ pipeSignal: inout sigset_t, restoring previousMask: inout sigset_t) {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 && sigismember(&previousMask, SIGPIPE) == 0 {
                var now = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
    #endif

    /// Waits for `pid` to exit until `deadline`, looking every millisecond; false when it is still running.
    private static func reap(_ pid: pid_t, _ status: inout Int32, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return true }
            if reaped < 0 && errno != EINTR { return true }  // not ours to wait for any more: nothing to kill
            guard ContinuousClock.now < deadline else { return false }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
    }

    /// A pipe whose ends close on exec (only the copies `dup2` makes reach the child).
    private static func makePipe(_ fds: inout [Int32]) -> Bool {
        var pair: [Int32] = [-1, -1]
        guard pipe(&pair) == 0 else { return false }
        fds = pair
        for fd in pair { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// The input written and both outputs read at once, with `poll`: a command that writes much
    /// before it reads would otherwise block on a full pipe while this side blocks writing.
    private struct Exchange {
        let input: [UInt8]
        var inputFD: Int32
        var outputFD: Int32
        var errorFD: Int32
        let outputLimit: Int
        var written = 0
        var output: [UInt8] = []
        var error: [UInt8] = []

        init(input: [UInt8], inputFD: Int32, outputFD: Int32, errorFD: Int32, outputLimit: Int) {
            self.input = input
            self.inputFD = inputFD
            self.outputFD = outputFD
            self.errorFD = errorFD
            self.outputLimit = outputLimit
            _ = fcntl(inputFD, F_SETFL, fcntl(inputFD, F_GETFL) | O_NONBLOCK)
            if input.isEmpty { closeInput() }
        }

        /// Whether both outputs ended (the command closed them, as it does when it exits) before `deadline`.
        mutating func run(until deadline: ContinuousClock.Instant) -> Bool {
            while outputFD >= 0 || errorFD >= 0 {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return false }
                var fds = [
                    pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0),
                    pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: errorFD, events: Int16(POLLIN), revents: 0),
                ]
                let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
                let ready = poll(&fds, nfds_t(fds.count), milliseconds)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if fds[0].revents != 0 { writeInput() }
                if fds[1].revents != 0 { Self.read(&outputFD, into: &output, limit: outputLimit) }
                if fds[2].revents != 0 { Self.read(&errorFD, into: &error, limit: outputLimit) }
            }
            return true
        }

        /// What fits now; the input closes when all is written or the command stopped reading.
        private mutating func writeInput() {
            let count = input.withUnsafeBytes { raw in
                SystemCalls.write(inputFD, raw.baseAddress! + written, raw.count - written)
            }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { return }
                return closeInput()  // EPIPE: the command does not read its input
            }
            written += count
            if written == input.count { closeInput() }
        }

        private static func read(_ fd: inout Int32, into bytes: inout [UInt8], limit: Int) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { SystemCalls.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { return }
            guard count > 0 else {
                close(fd)
                fd = -1
                return
            }
            // Read past the limit and dropped, so the command never blocks on a full pipe.
            bytes += buffer.prefix(min(count, max(0, limit - bytes.count)))
        }

        private mutating func closeInput() {
            if inputFD >= 0 { close(inputFD) }
            inputFD = -1
        }

        mutating func closeAll() {
            closeInput()
            for fd in [outputFD, errorFD] where fd >= 0 { close(fd) }
            outputFD = -1
            errorFD = -1
        }
    }
}

extension CommandRun {
    /// The executable `name` on this process's `PATH` (`xcrun`), as a path; nil when there is none.
    package static func find(_ name: String) -> String? {
        guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
