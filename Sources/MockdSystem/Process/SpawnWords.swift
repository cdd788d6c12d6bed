#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
    import CMockdSystem  // crt_externs.h's _NSGetEnviron
#endif

/// What `posix_spawn` takes besides the file actions: the program's words as C strings, and
/// this process's environment, which the child inherits. Shared by the two ways mockd starts a
/// process (`DetachedProcess`, `CommandRun`).
enum SpawnWords {
    /// Runs `body` with `executable` and `arguments` as a NULL-terminated argv, freed after.
    static func withArgv<T>(_ executable: String, _ arguments: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        return body(argv)
    }

    /// The environment a spawned child inherits.
    static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if os(Linux)
            environ
        #else
            _NSGetEnviron().pointee
        #endif
    }
}
