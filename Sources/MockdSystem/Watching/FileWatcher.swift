#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdLock
import Synchronization

/// Watches folders (recursively) and calls `onChange` once per burst of changes.
///
/// On Linux it uses inotify: every sub-folder is watched, folders created or moved in later are
/// added as they appear, and after each burst the watch list is rebuilt from a fresh walk (which
/// also picks up folders reached through symbolic links, and roots that were deleted and came
/// back). Elsewhere, or when inotify cannot be used, it walks the folders every 500 ms and
/// compares (path, size, mtime, ctime, inode).
///
/// What counts: a file written (closed after writing), created, deleted, moved in or out, or its
/// attributes changed; a folder created, deleted or renamed. Hidden names (starting with `.`:
/// editor swap files, atomic-write temporaries, `.git`) are skipped, except a hidden symbolic link
/// to a folder: Kubernetes swaps a ConfigMap by renaming a new `..data` link over the old one.
/// A watched path that is itself a symbolic link is followed, and swapping that link counts too.
/// Paths for which `ignore` returns true are skipped (it gets the full path of a changed entry,
/// or of a folder about to be walked, spelled from the watched path as given).
///
/// One thread per watcher, blocked in `poll(2)`. After the first event it waits until `debounce`
/// passes without a new one, but no longer than a second from the first, then calls `onChange`
/// once, on the watcher thread (so calls never overlap, and `ignore` runs there too).
package final class FileWatcher: Sendable {
    /// Why `start()` could not watch: which path, and the system's reason.
    package struct WatchError: Error, CustomStringConvertible, Sendable {
        package let path: String
        package let reason: String
        package var description: String { "cannot watch \(path): \(reason)" }
    }

    package let paths: [String]
    private let settings: Settings
    private let state: Lock<State>

    /// `mayBeMissing`: paths that need not exist at start (a default routes folder not made yet);
    /// like a root that disappears, each is looked for again and its appearing is a change.
    package convenience init(
        paths: [String], mayBeMissing: Set<String> = [], debounce: Duration = .milliseconds(150),
        ignore: @escaping @Sendable (String) -> Bool = { _ in false },
        onChange: @escaping @Sendable () -> Void
    ) {
        self.init(paths: paths, mayBeMissing: mayBeMissing, debounce: debounce, ignore: ignore, forcePolling: false, onChange: onChange)
    }

    /// `forcePolling` selects the walking fallback even where inotify works (for tests).
    init(
        paths: [String], mayBeMissing: Set<String> = [], debounce: Duration = .milliseconds(150),
        maxDelay: Duration = .seconds(1), pollInterval: Duration = .milliseconds(500),
        ignore: @escaping @Sendable (String) -> Bool = { _ in false },
        forcePolling: Bool,
        onChange: @escaping @Sendable () -> Void
    ) {
        self.paths = paths
        settings = Settings(
            roots: paths.map(Self.normalized), debounce: debounce, maxDelay: max(maxDelay, debounce),
            pollInterval: pollInterval, mayBeMissing: Set(mayBeMissing.map(Self.normalized)), ignore: ignore, onChange: onChange)
        #if os(Linux)
            let mode: Mode = forcePolling ? .polling : .inotify
        #else
            let mode: Mode = .polling
        #endif
        state = Lock(State(mode: mode, forcePolling: forcePolling))
    }

    deinit { stop() }

    /// "inotify" or "polling", for the startup log. Before `start()`, the mode it will try.
    package var mode: String {
        state.withLock { state in
            if let running = state.running { return running.worker.currentMode.rawValue }
            return state.mode.rawValue
        }
    }

    /// Why inotify was given up for polling (e.g. the `fs.inotify.max_user_watches` limit), if it was.
    package var fallbackReason: String? {
        state.withLock { state in state.running?.worker.fallbackReason.withLock { $0 } ?? state.fallbackReason }
    }

    /// Watches every path (each must be a folder, or a symbolic link to one) and starts the
    /// watcher thread. Changes made after `start()` returns are seen. Does nothing if running.
    package func start() throws {
        try state.withLock { (state: inout State) throws(WatchError) in
            guard state.running == nil else { return }
            for root in settings.roots where !(settings.mayBeMissing.contains(root) && access(root, F_OK) != 0) {
                try Self.checkFolder(root)
            }
            let (wakeRead, wakeWrite) = try Self.makeWakePipe()

            var initial: Initial?
            var inotifyFD: Int32 = -1
            var fallbackReason: String?
            #if os(Linux)
                if !state.forcePolling {
                    switch Inotify.open(roots: settings.roots, mayBeMissing: settings.mayBeMissing, ignore: settings.ignore) {
                    case .success(let (fd, table)):
                        inotifyFD = fd
                        initial = .inotify(table)
                    case .failure(.root(let error)):
                        close(wakeRead); close(wakeWrite)
                        throw error
                    case .failure(.unavailable(let reason)):
                        fallbackReason = reason
                    }
                }
            #endif
            let worker = Worker(
                settings: settings, wakeRead: wakeRead, wakeWrite: wakeWrite, inotifyFD: inotifyFD,
                initial: initial ?? .polling(Polling.snapshot(settings.roots, ignore: settings.ignore)),
                fallbackReason: fallbackReason)
            switch JoinableThread.spawn({ worker.run() }) {
            case .success(let thread):
                state.running = Running(worker: worker, thread: thread)
                state.mode = worker.currentMode
                state.fallbackReason = fallbackReason
            case .failure(let error):
                worker.closeDescriptors()
                throw WatchError(
                    path: paths.joined(separator: ", "),
                    reason: "cannot start the watcher thread: \(Self.describe(error.code))")
            }
        }
    }

    /// Ends the watcher thread and waits for it, so no `onChange` call happens after this returns
    /// (one in progress is let finish). A burst still being debounced is dropped. Safe to call
    /// twice, and from inside `onChange` (then it does not wait for the thread, which is running it).
    package func stop() {
        let running = state.withLock { state in
            defer { state.running = nil }
            return state.running
        }
        guard let running else { return }
        running.worker.requestStop()
        if running.thread.isCurrent {
            running.worker.closesOwnDescriptors.store(true, ordering: .sequentiallyConsistent)
            running.thread.detach()
        } else {
            running.thread.join()
            running.worker.closeDescriptors()
        }
    }

    // MARK: - Setup

    enum Mode: String, Sendable {
        case inotify, polling
    }

    private struct State {
        var mode: Mode
        let forcePolling: Bool
        var fallbackReason: String?
        var running: Running?

        init(mode: Mode, forcePolling: Bool) {
            self.mode = mode
            self.forcePolling = forcePolling
        }
    }

    private struct Running {
        let worker: Worker
        let thread: JoinableThread
    }

    /// "mocks/" → "mocks", so joined paths read "mocks/a.json".
    private static func normalized(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? "." : path
    }

    private static func checkFolder(_ path: String) throws(WatchError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw WatchError(path: path, reason: describe(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw WatchError(path: path, reason: "not a folder") }
    }

    /// The pipe `stop()` writes a byte to, to wake the thread from `poll(2)`.
    private static func makeWakePipe() throws(WatchError) -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw WatchError(path: "(wake pipe)", reason: describe(errno)) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return (fds[0], fds[1])
    }

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
