#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MockdThreads
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
public final class FileWatcher: Sendable {
    /// Why `start()` could not watch: which path, and the system's reason.
    public struct WatchError: Error, CustomStringConvertible, Sendable {
        public let path: String
        public let reason: String
        public var description: String { "cannot watch \(path): \(reason)" }
    }

    public let paths: [String]
    private let settings: Settings
    private let state: Mutex<State>

    public convenience init(
        paths: [String], debounce: Duration = .milliseconds(150),
        ignore: @escaping @Sendable (String) -> Bool = { _ in false },
        onChange: @escaping @Sendable () -> Void
    ) {
        self.init(paths: paths, debounce: debounce, ignore: ignore, forcePolling: false, onChange: onChange)
    }

    /// `forcePolling` selects the walking fallback even where inotify works (for tests).
    init(
        paths: [String], debounce: Duration = .milliseconds(150),
        maxDelay: Duration = .seconds(1), pollInterval: Duration = .milliseconds(500),
        ignore: @escaping @Sendable (String) -> Bool = { _ in false },
        forcePolling: Bool,
        onChange: @escaping @Sendable () -> Void
    ) {
        self.paths = paths
        settings = Settings(
            roots: paths.map(Self.normalized), debounce: debounce, maxDelay: max(maxDelay, debounce),
            pollInterval: pollInterval, ignore: ignore, onChange: onChange)
        #if os(Linux)
        let mode: Mode = forcePolling ? .polling : .inotify
        #else
        let mode: Mode = .polling
        #endif
        state = Mutex(State(mode: mode, forcePolling: forcePolling))
    }

    deinit { stop() }

    /// "inotify" or "polling", for the startup log. Before `start()`, the mode it will try.
    public var mode: String {
        state.withLock { state in
            if let running = state.running { return running.worker.currentMode.rawValue }
            return state.mode.rawValue
        }
    }

    /// Why inotify was given up for polling (e.g. the `fs.inotify.max_user_watches` limit), if it was.
    public var fallbackReason: String? {
        state.withLock { state in state.running?.worker.fallbackReason.withLock { $0 } ?? state.fallbackReason }
    }

    /// Watches every path (each must be a folder, or a symbolic link to one) and starts the
    /// watcher thread. Changes made after `start()` returns are seen. Does nothing if running.
    public func start() throws {
        try state.withLock { (state: inout State) throws(WatchError) in
            guard state.running == nil else { return }
            for root in settings.roots { try Self.checkFolder(root) }
            let (wakeRead, wakeWrite) = try Self.makeWakePipe()

            var initial: Initial?
            var inotifyFD: Int32 = -1
            var fallbackReason: String?
            #if os(Linux)
            if !state.forcePolling {
                switch Inotify.open(roots: settings.roots, ignore: settings.ignore) {
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
                throw WatchError(path: paths.joined(separator: ", "),
                                 reason: "cannot start the watcher thread: \(Self.describe(error.code))")
            }
        }
    }

    /// Ends the watcher thread and waits for it, so no `onChange` call happens after this returns
    /// (one in progress is let finish). A burst still being debounced is dropped. Safe to call
    /// twice, and from inside `onChange` (then it does not wait for the thread, which is running it).
    public func stop() {
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

// MARK: - The watcher thread

private struct Settings: Sendable {
    let roots: [String]
    let debounce: Duration
    let maxDelay: Duration
    let pollInterval: Duration
    let ignore: @Sendable (String) -> Bool
    let onChange: @Sendable () -> Void
}

/// What the thread starts from, built by `start()` so changes right after it returns are seen.
private enum Initial: Sendable {
    #if os(Linux)
    case inotify(Inotify.Table)
    #endif
    case polling([String: Polling.Stamp])
}

/// Everything the watcher thread shares with `stop()`; the thread's mutable state lives in `run()`.
private final class Worker: Sendable {
    let settings: Settings
    let wakeRead: Int32
    let wakeWrite: Int32
    let inotifyFD: Int32
    let initial: Initial
    let stopRequested = Atomic<Bool>(false)
    /// Set when `stop()` was called from `onChange`: nobody will join, so the thread closes up.
    let closesOwnDescriptors = Atomic<Bool>(false)
    private let usesInotify: Atomic<Bool>
    let fallbackReason: Mutex<String?>

    init(settings: Settings, wakeRead: Int32, wakeWrite: Int32, inotifyFD: Int32, initial: Initial, fallbackReason: String?) {
        self.settings = settings
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
        self.inotifyFD = inotifyFD
        self.initial = initial
        self.fallbackReason = Mutex(fallbackReason)
        usesInotify = Atomic(inotifyFD >= 0)
    }

    var currentMode: FileWatcher.Mode { usesInotify.load(ordering: .relaxed) ? .inotify : .polling }

    func requestStop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    func closeDescriptors() {
        if inotifyFD >= 0 { close(inotifyFD) }
        close(wakeRead)
        close(wakeWrite)
    }

    var stopping: Bool { stopRequested.load(ordering: .sequentiallyConsistent) }

    func run() {
        setThreadName()
        switch initial {
        #if os(Linux)
        case .inotify(let table):
            if let reason = runInotify(table) {
                fallbackReason.withLock { $0 = reason }
                usesInotify.store(false, ordering: .relaxed)
                runPolling(Polling.snapshot(settings.roots, ignore: settings.ignore))
            }
        #endif
        case .polling(let snapshot):
            runPolling(snapshot)
        }
        if closesOwnDescriptors.load(ordering: .sequentiallyConsistent) { closeDescriptors() }
    }

    /// Blocks up to `timeout` (nil: forever) for the wake pipe or `other`. Returns false when
    /// woken to stop, else `other`'s revents (0 on timeout).
    private func wait(for other: Int32?, timeout: Duration?) -> Int16? {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        if let other { fds.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = timeout.map(Self.milliseconds) ?? -1
        while true {
            let result = poll(&fds, nfds_t(fds.count), milliseconds)
            if result < 0 && errno == EINTR { continue }
            if stopping || fds[0].revents != 0 { return nil }
            if result < 0 { return Int16(POLLERR) }
            return fds.count > 1 ? fds[1].revents : 0
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        if duration <= .zero { return 0 }
        let (seconds, attoseconds) = duration.components
        // Rounded up, so a wait never wakes just before its deadline.
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    // MARK: Polling

    private func runPolling(_ initial: [String: Polling.Stamp]) {
        var previous = initial
        while true {
            guard let failed = wait(for: nil, timeout: settings.pollInterval) else { return }
            if failed != 0 {  // poll(2) itself failed: still never spin
                var pause = timespec(tv_sec: 0, tv_nsec: 500_000_000)
                nanosleep(&pause, nil)
            }
            let current = Polling.snapshot(settings.roots, ignore: settings.ignore)
            guard current != previous else { continue }
            previous = current
            if stopping { return }
            settings.onChange()
        }
    }

    // MARK: inotify

    #if os(Linux)
    /// Returns nil when stopped, or why inotify stopped working (then the caller polls instead).
    private func runInotify(_ initial: Inotify.Table) -> String? {
        var table = initial
        let clock = ContinuousClock()
        var burstStart: ContinuousClock.Instant?
        var lastEvent = clock.now
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }

        while true {
            var timeout: Duration?
            if let burstStart {
                timeout = min(lastEvent + settings.debounce, burstStart + settings.maxDelay) - clock.now
            } else if table.missingRoots {
                timeout = settings.pollInterval  // look again for a root that is gone
            }
            guard let revents = wait(for: inotifyFD, timeout: timeout) else { return nil }

            if revents & Int16(POLLIN) != 0 {
                let count = read(inotifyFD, buffer.baseAddress, capacity)
                if count < 0 && errno != EINTR && errno != EAGAIN {
                    return "reading inotify events failed: \(FileWatcher.describe(errno))"
                }
                if count > 0 && table.handle(events: UnsafeRawBufferPointer(rebasing: buffer[..<count]), fd: inotifyFD, ignore: settings.ignore) {
                    lastEvent = clock.now
                    if burstStart == nil { burstStart = lastEvent }
                }
            } else if revents != 0 {
                return "the inotify descriptor failed"
            } else if burstStart == nil && table.missingRoots {
                // A root that was gone may be back: watching it again is a change.
                let missing = table.missingRootCount
                table.rebuild(fd: inotifyFD, roots: settings.roots, ignore: settings.ignore)
                if table.missingRootCount < missing {
                    lastEvent = clock.now
                    burstStart = lastEvent
                }
            }

            if let start = burstStart, clock.now >= min(lastEvent + settings.debounce, start + settings.maxDelay) {
                burstStart = nil
                // Renamed folders, symlinked folders, roots re-created: watch what is there now.
                table.rebuild(fd: inotifyFD, roots: settings.roots, ignore: settings.ignore)
                if stopping { return nil }
                settings.onChange()
            }
        }
    }
    #endif

    private func setThreadName() {
        // Glibc's pthread_setname_np needs _GNU_SOURCE, which Swift's Glibc module lacks.
        #if canImport(Darwin)
        _ = pthread_setname_np("mockd-watch")
        #endif
    }
}

// MARK: - Polling walk

private enum Polling {
    /// What a walk compares. Folders record only that they exist (and their inode), not their
    /// mtime, which also changes when a hidden file is written in them.
    struct Stamp: Equatable, Sendable {
        var isFolder: Bool
        var inode: UInt64
        var size: Int64 = 0
        var mtime: Int = 0
        var mtimeNanoseconds: Int = 0
        var ctime: Int = 0
        var ctimeNanoseconds: Int = 0
    }

    static func snapshot(_ roots: [String], ignore: (String) -> Bool) -> [String: Stamp] {
        var result: [String: Stamp] = [:]
        for root in roots {
            var visited = Set<FileID>()
            var info = stat()
            guard stat(root, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            result[root] = Stamp(isFolder: true, inode: UInt64(info.st_ino))
            visited.insert(FileID(info))
            walk(root, depth: 0, visited: &visited, into: &result, ignore: ignore)
        }
        return result
    }

    private static func walk(_ folder: String, depth: Int, visited: inout Set<FileID>, into result: inout [String: Stamp], ignore: (String) -> Bool) {
        guard depth < 64 else { return }
        forEachEntry(in: folder) { name, path, _ in
            var info = stat()
            if name.hasPrefix(".") {
                // Only a hidden link to a folder counts (a Kubernetes `..data` swap).
                if isLinkToFolder(path), lstat(path, &info) == 0 {
                    result[path] = stamp(info, isFolder: false)
                }
                return
            }
            guard stat(path, &info) == 0, !ignore(path) else { return }
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                result[path] = Stamp(isFolder: true, inode: UInt64(info.st_ino))
                if visited.insert(FileID(info)).inserted {
                    walk(path, depth: depth + 1, visited: &visited, into: &result, ignore: ignore)
                }
            } else if type == S_IFREG {
                result[path] = stamp(info, isFolder: false)
            }
        }
    }

    private static func stamp(_ info: stat, isFolder: Bool) -> Stamp {
        #if os(Linux)
        let (mtime, ctime) = (info.st_mtim, info.st_ctim)
        #else
        let (mtime, ctime) = (info.st_mtimespec, info.st_ctimespec)
        #endif
        return Stamp(
            isFolder: isFolder, inode: UInt64(info.st_ino), size: Int64(info.st_size),
            mtime: Int(mtime.tv_sec), mtimeNanoseconds: Int(mtime.tv_nsec),
            ctime: Int(ctime.tv_sec), ctimeNanoseconds: Int(ctime.tv_nsec))
    }
}

// MARK: - inotify

#if os(Linux)
private enum Inotify {
    enum OpenError: Error {
        /// A given path cannot be watched: `start()` throws.
        case root(FileWatcher.WatchError)
        /// inotify itself is unusable (no instance, watch limit reached): poll instead.
        case unavailable(String)
    }

    static let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    static func open(roots: [String], ignore: (String) -> Bool) -> Result<(Int32, Table), OpenError> {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            return .failure(.unavailable("inotify_init1 failed: \(FileWatcher.describe(errno))"))
        }
        var table = Table()
        do throws(OpenError) {
            try table.build(fd: fd, roots: roots, ignore: ignore, strict: true)
        } catch {
            close(fd)
            return .failure(error)
        }
        return .success((fd, table))
    }

    struct Entry: Sendable {
        /// The folder as reached from a watched path (the first spelling seen, if several).
        var path: String
        /// A folder of the watched trees (not only the parent of a watched symbolic link).
        var inTree: Bool
        /// Names in this folder that are watched paths which are symbolic links.
        var linkNames: Set<String> = []
    }

    /// The watch descriptors and what they stand for. Owned by the watcher thread once running.
    struct Table: Sendable {
        var entries: [Int32: Entry] = [:]
        var missingRootCount = 0
        var missingRoots: Bool { missingRootCount > 0 }

        /// Watches every folder under `roots`. `strict`: a root that cannot be watched is an error
        /// (at start); otherwise it is counted as missing and looked for again later.
        mutating func build(fd: Int32, roots: [String], ignore: (String) -> Bool, strict: Bool) throws(OpenError) {
            var visited = Set<FileID>()
            missingRootCount = 0
            for root in roots {
                let wd = inotify_add_watch(fd, root, Inotify.mask)
                if wd < 0 {
                    let code = errno
                    if code == ENOSPC || code == ENOMEM { throw .unavailable(limitMessage(code)) }
                    if strict { throw .root(FileWatcher.WatchError(path: root, reason: FileWatcher.describe(code))) }
                    missingRootCount += 1
                    continue
                }
                mark(wd, path: root)
                var info = stat()
                if stat(root, &info) == 0 { visited.insert(FileID(info)) }
                try addTree(root, fd: fd, depth: 0, visited: &visited, ignore: ignore)
                // A root that is a symbolic link: watch its parent for that name being swapped.
                var linkInfo = stat()
                if lstat(root, &linkInfo) == 0, (linkInfo.st_mode & S_IFMT) == S_IFLNK {
                    let (parent, name) = split(root)
                    let parentWD = inotify_add_watch(fd, parent, Inotify.mask)
                    if parentWD >= 0 {
                        entries[parentWD, default: Entry(path: parent, inTree: false)].linkNames.insert(name)
                    }
                }
            }
        }

        /// Rebuilds the table from a fresh walk and drops watches on folders no longer reached.
        mutating func rebuild(fd: Int32, roots: [String], ignore: (String) -> Bool) {
            let old = entries
            entries = [:]
            do throws(OpenError) {
                try build(fd: fd, roots: roots, ignore: ignore, strict: false)
            } catch {
                // Watch limit reached: keep what could be added and carry on.
            }
            for wd in old.keys where entries[wd] == nil {
                inotify_rm_watch(fd, wd)  // its IN_IGNORED then finds no entry and is skipped
            }
        }

        private mutating func mark(_ wd: Int32, path: String) {
            if var entry = entries[wd] {
                if !entry.inTree { entry.path = path; entry.inTree = true }
                entries[wd] = entry
            } else {
                entries[wd] = Entry(path: path, inTree: true)
            }
        }

        /// Watches the folders below `folder` (not `folder` itself).
        mutating func addTree(_ folder: String, fd: Int32, depth: Int, visited: inout Set<FileID>, ignore: (String) -> Bool) throws(OpenError) {
            guard depth < 64 else { return }
            var subfolders: [(String, FileID)] = []
            forEachEntry(in: folder, foldersOnly: true) { name, path, _ in
                guard !name.hasPrefix(".") else { return }
                var info = stat()
                guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, !ignore(path) else { return }
                subfolders.append((path, FileID(info)))
            }
            for (path, id) in subfolders where visited.insert(id).inserted {
                let wd = inotify_add_watch(fd, path, Inotify.mask)
                if wd < 0 {
                    let code = errno
                    if code == ENOSPC || code == ENOMEM { throw .unavailable(limitMessage(code)) }
                    continue  // gone meanwhile, or unreadable (then the loader cannot read it either)
                }
                mark(wd, path: path)
                try addTree(path, fd: fd, depth: depth + 1, visited: &visited, ignore: ignore)
            }
        }

        /// Reads a batch of events; returns whether any of them counts as a change.
        mutating func handle(events: UnsafeRawBufferPointer, fd: Int32, ignore: (String) -> Bool) -> Bool {
            var changed = false
            var offset = 0
            let header = 16  // wd, mask, cookie, len: four 32-bit fields, then the name
            while offset + header <= events.count {
                let wd = events.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = events.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(events.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = events[(offset + header)..<min(offset + header + length, events.count)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += header + length
                if counts(wd: wd, mask: mask, name: name, fd: fd, ignore: ignore) { changed = true }
            }
            return changed
        }

        private mutating func counts(wd: Int32, mask: UInt32, name: String, fd: Int32, ignore: (String) -> Bool) -> Bool {
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { return true }  // events were lost: reload to be sure
            guard let entry = entries[wd] else { return false }
            if name.isEmpty {
                // The watched folder itself was deleted, moved, or its watch ended.
                if mask & UInt32(IN_IGNORED) != 0 {
                    entries[wd] = nil
                    return entry.inTree
                }
                return entry.inTree && mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0
            }
            if entry.linkNames.contains(name) { return true }
            guard entry.inTree else { return false }
            let path = entry.path + "/" + name
            if name.hasPrefix(".") {
                return mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 && isLinkToFolder(path)
            }
            if ignore(path) { return false }
            if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                // Watch the new folder now, so files written into it next are seen.
                var visited = Set<FileID>()
                let wd = inotify_add_watch(fd, path, Inotify.mask)
                if wd >= 0 {
                    mark(wd, path: path)
                    try? addTree(path, fd: fd, depth: 0, visited: &visited, ignore: ignore)
                }
            }
            return true
        }

        private func limitMessage(_ code: Int32) -> String {
            let detail = code == ENOSPC ? "the inotify watch limit is reached (raise fs.inotify.max_user_watches)" : FileWatcher.describe(code)
            return "inotify_add_watch failed: \(detail)"
        }

        private func split(_ path: String) -> (parent: String, name: String) {
            guard let slash = path.lastIndex(of: "/") else { return (".", path) }
            let parent = String(path[..<slash])
            return (parent.isEmpty ? "/" : parent, String(path[path.index(after: slash)...]))
        }
    }
}
#endif

// MARK: - Shared helpers

/// A file's identity, to walk each folder once when symbolic links loop.
private struct FileID: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// Calls `body(name, path, mayBeFolder)` for each entry of `folder` but `.` and `..`;
/// `mayBeFolder` is false when readdir already says it is neither a folder nor a link.
/// `foldersOnly`: skip entries that cannot be folders before making any String (a folder of
/// 10,000 mocks would otherwise cost 20,000 strings at every start).
private func forEachEntry(in folder: String, foldersOnly: Bool = false, _ body: (String, String, Bool) -> Void) {
    guard let handle = opendir(folder) else { return }
    defer { closedir(handle) }
    while let entry = readdir(handle) {
        let type = entry.pointee.d_type
        let mayBeFolder = type == UInt8(DT_DIR) || type == UInt8(DT_LNK) || type == UInt8(DT_UNKNOWN)
        if foldersOnly && !mayBeFolder { continue }
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name == "." || name == ".." { continue }
        body(name, folder + "/" + name, mayBeFolder)
    }
}

private func isLinkToFolder(_ path: String) -> Bool {
    var link = stat()
    var target = stat()
    return lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
        && stat(path, &target) == 0 && (target.st_mode & S_IFMT) == S_IFDIR
}
