#if os(macOS) || os(Linux)
    import Foundation  // the C library comes with it: MockdKit imports nothing else

    /// Starts a program with posix_spawn, not Foundation's Process: on Linux, Swift 6.3's
    /// `Process.run()` copies 256 bytes out of each /proc/self/fd entry, and the process that
    /// launches dies (SIGSEGV in memcpy) when one sits at the end of a page, which happens once
    /// it has over about 1,300 descriptors open, as a test process running many servers at once
    /// does. The child gets /dev/null as stdin, `stdout` and `stderr` as its own, `directory` (if
    /// any) as its working folder, and no other descriptor of this process. `package`: MockdKit's
    /// `MockdProcess` and the CLI tests' child processes start mockd with it.
    package enum Spawn {
        package struct Failure: Error, CustomStringConvertible {
            package let description: String
        }

        /// Where the child's stderr goes.
        package enum Output {
            /// A descriptor of this process, such as a pipe's writing end.
            case descriptor(Int32)
            /// A file, created if missing and appended to.
            case file(String)
        }

        package static func start(
            _ executable: String, _ arguments: [String], environment: [String: String],
            directory: String? = nil, stdout: Int32, stderr: Output
        ) throws -> Int32 {  // the pid
            // Darwin's are pointers the init functions allocate, glibc's are structs.
            #if os(Linux)
                var actions = posix_spawn_file_actions_t()
                var attributes = posix_spawnattr_t()
            #else
                var actions: posix_spawn_file_actions_t? = nil
                var attributes: posix_spawnattr_t? = nil
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
            switch stderr {
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 2)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            }
            var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
            #if os(Linux)
                // glibc's _np calls, not visible to Swift without _GNU_SOURCE: looked up by name.
                guard let chdir = lookUp("posix_spawn_file_actions_addchdir_np", as: AddChdir.self),
                    let closeFrom = lookUp("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self)
                else {
                    throw Failure(description: "glibc 2.34 or later is needed (posix_spawn_file_actions_addchdir_np, _addclosefrom_np)")
                }
                if let directory { _ = chdir(&actions, directory) }
                _ = closeFrom(&actions, 3)
            #else
                if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }
                // Darwin's way to close every descriptor the actions above do not name.
                flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
            #endif

            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // Default signal handling and an empty mask in the child, whatever this thread has.
            var all = sigset_t()
            sigfillset(&all)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(flags))

            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for pointer in argv + envp { free(pointer) } }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            guard result == 0 else {
                throw Failure(description: "cannot start \(executable): \(String(cString: strerror(result)))")
            }
            return pid
        }

        #if os(Linux)
            private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

            private static func lookUp<F>(_ name: String, as type: F.Type) -> F? {
                guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }  // RTLD_DEFAULT
                return unsafeBitCast(symbol, to: type)
            }
        #endif
    }
#endif
