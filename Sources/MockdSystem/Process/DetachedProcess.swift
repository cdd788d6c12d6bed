#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
    import CMockdSystem  // libproc.h's proc_name
#endif

/// A process meant to outlive the one that starts it (`mockd serve --background`), and what can
/// be learnt about a process by its id (`mockd stop`).
package enum DetachedProcess {
    /// Starts `executable` with `arguments` in a session of its own, so neither a terminal's
    /// Ctrl-C nor a build tool ending its script's process group reaches it: stdin /dev/null,
    /// stdout and stderr appended to `log` (a descriptor of this process), default signal
    /// handling and an empty signal mask whatever this thread has, this process's environment.
    /// The pid, or the `errno`.
    package static func start(_ executable: String, _ arguments: [String], log: Int32) -> Result<Int32, Errno> {
        #if os(Linux)
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
            // POSIX_SPAWN_SETSID (glibc 2.26), hidden from Swift behind _GNU_SOURCE.
            let newSession: Int32 = 0x80
        #else
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
            let newSession = Int32(POSIX_SPAWN_SETSID)
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, log, 1)
        posix_spawn_file_actions_adddup2(&actions, log, 2)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | newSession))
        var pid: pid_t = 0
        let result = SpawnWords.withArgv(executable, arguments) {
            posix_spawn(&pid, executable, &actions, &attributes, $0, SpawnWords.environment)
        }
        return result == 0 ? .success(pid) : .failure(Errno(result))
    }

    package struct Errno: Error, CustomStringConvertible {
        package let code: Int32
        package init(_ code: Int32) { self.code = code }
        package var description: String { String(cString: strerror(code)) }
    }

    /// The path of this process's executable, to start another of it; nil when it cannot be read.
    package static func currentExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        #if os(Linux)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
        #else
            var size = UInt32(buffer.count)
            guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        #endif
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The name of the program process `pid` runs (Linux: its `comm`, at most 15 bytes of the
    /// executable's name), or nil when no such process is running: none, or one that has exited
    /// and waits to be reaped.
    package static func runningName(_ pid: Int32) -> String? {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return nil }
        #if os(Linux)
            // /proc/PID/stat: "PID (comm) STATE …"; comm may hold spaces and parentheses, so the
            // state follows the last ')'.
            // A procfs file says its size is 0: read up to a buffer's worth, which the line fits.
            let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var stat = [UInt8](repeating: 0, count: 1024)
            let count = stat.withUnsafeMutableBytes { SystemCalls.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            stat.removeSubrange(count...)
            guard let open = stat.firstIndex(of: UInt8(ascii: "(")), let close = stat.lastIndex(of: UInt8(ascii: ")")),
                open < close, close + 2 < stat.count
            else { return nil }
            if stat[close + 2] == UInt8(ascii: "Z") || stat[close + 2] == UInt8(ascii: "X") { return nil }
            return String(decoding: stat[(open + 1)..<close], as: UTF8.self)
        #else
            var buffer = [CChar](repeating: 0, count: 4 * Int(MAXCOMLEN) + 1)
            guard proc_name(pid, &buffer, UInt32(buffer.count)) > 0 else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }
}
