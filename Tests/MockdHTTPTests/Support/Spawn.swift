#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a program with posix_spawn, not Foundation's Process: on Linux, Swift 6.3's
/// `Process.run()` reads 256 bytes out of each /proc/self/fd entry and crashed the test run
/// (SIGSEGV in memmove) when one sat at the end of a page (fixed in swift-corelibs-foundation
/// after 6.3). The child gets /dev/null as stdin, `stdout` as stdout, the file `stderrPath` as
/// stderr, `directory` as its working folder, and no other descriptor of the test process.
enum Spawn {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func start(_ executable: String, _ arguments: [String], environment: [String: String],
                      directory: String, stdout: Int32, stderrPath: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        #if os(Linux)
        // glibc's _np calls, not visible to Swift without _GNU_SOURCE: looked up by name.
        guard let chdir = lookUp("posix_spawn_file_actions_addchdir_np", as: AddChdir.self),
              let closeFrom = lookUp("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self) else {
            throw Failure(description: "glibc 2.34 or later is needed (posix_spawn_file_actions_addchdir_np, _addclosefrom_np)")
        }
        _ = chdir(&actions, directory)
        _ = closeFrom(&actions, 3)
        #else
        posix_spawn_file_actions_addchdir_np(&actions, directory)
        #endif

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default signal handling and an empty mask in the child, whatever this thread has.
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

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
