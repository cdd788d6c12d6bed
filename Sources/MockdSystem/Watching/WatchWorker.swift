#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import MockdLock
import Synchronization

// MARK: - The watcher thread

struct Settings: Sendable {
    let roots: [String]
    let debounce: Duration
    let maxDelay: Duration
    let pollInterval: Duration
    /// Roots that need not exist at start (normalized like `roots`).
    let mayBeMissing: Set<String>
    let ignore: @Sendable (String) -> Bool
    let onChange: @Sendable () -> Void
}

/// What the thread starts from, built by `start()` so changes right after it returns are seen.
enum Initial: Sendable {
    #if os(Linux)
        case inotify(Inotify.Table)
    #endif
    case polling([String: Polling.Stamp])
}

/// Everything the watcher thread shares with `stop()`; the thread's mutable state lives in `run()`.
final class Worker: Sendable {
    let settings: Settings
    let wakeRead: Int32
    let wakeWrite: Int32
    let inotifyFD: Int32
    let initial: Initial
    let stopRequested = Atomic<Bool>(false)
    /// Set when `stop()` was called from `onChange`: nobody will join, so the thread closes up.
    let closesOwnDescriptors = Atomic<Bool>(false)
    private let usesInotify: Atomic<Bool>
    let fallbackReason: Lock<String?>

    init(settings: Settings, wakeRead: Int32, wakeWrite: Int32, inotifyFD: Int32, initial: Initial, fallbackReason: String?) {
        self.settings = settings
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
        self.inotifyFD = inotifyFD
        self.initial = initial
        self.fallbackReason = Lock(fallbackReason)
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
                    if count > 0
                        && table.handle(events: UnsafeRawBufferPointer(rebasing: buffer[..<count]), fd: inotifyFD, ignore: settings.ignore)
                    {
                        lastEvent = clock.now
                        if burstStart == nil { burstStart = lastEvent }
                    }
                } else if revents != 0 {
                    return "the inotify descriptor failed"
                } else if burstStart == nil && table.missingRootMayBeBack() {
                    // A root that was gone is back: watching it again is a change.
                    let missing = table.missingRootCount
                    table.rebuild(fd: inotifyFD, roots: settings.roots, ignore: settings.ignore)
                    if table.missingRootCount < missing {
                        lastEvent = clock.now
                        burstStart = lastEvent
                    }
                }

                if let start = burstStart, clock.now >= min(lastEvent + settings.debounce, start + settings.maxDelay) {
                    // Events the kernel already holds belong to this burst: on a busy machine this
                    // thread can run late, so the quiet time may pass before it has read them all.
                    if clock.now < start + settings.maxDelay, let ready = wait(for: inotifyFD, timeout: .zero),
                        ready & Int16(POLLIN) != 0
                    {
                        continue
                    }
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
