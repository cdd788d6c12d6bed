import Foundation
@testable import MockdSystem
import MockdLock
import Testing
import TestSupport
import Synchronization

/// Reload's watching half: edits, new, deleted and renamed files and folders are seen,
/// a burst is one call, hidden and ignored paths are not, symbolic link swaps are, and `stop()`
/// ends it. Every test runs with inotify and with the polling fallback.
@Suite("File watcher")
struct FileWatcherTests {
    enum Mode: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case inotify, polling
        var testDescription: String { rawValue }
        /// A bounded wait for "nothing happens": longer than a debounce, or than a polling walk.
        var quiet: Duration { self == .inotify ? .milliseconds(500) : .milliseconds(800) }
    }

    /// How long a change may take to be reported (the README promises within a second; a busy box is slower).
    static let changeTimeout: Duration = eventDeadline

    @Test(arguments: Mode.allCases)
    func modifyingAFileIsAChange(mode: Mode) async throws {
        try await withWatcher(mode, files: ["sub/a.json": "{}"]) { folder, _, changes in
            try folder.write("sub/a.json", #"{"changed": true}"#)
            #expect(await changes.reach(1, within: Self.changeTimeout))
        }
    }

    @Test(arguments: Mode.allCases)
    func creatingAFileIsAChange(mode: Mode) async throws {
        try await withWatcher(mode, files: ["sub/a.json": "{}"]) { folder, _, changes in
            try folder.write("sub/b.json", "{}")
            #expect(await changes.reach(1, within: Self.changeTimeout))
        }
    }

    @Test(arguments: Mode.allCases)
    func deletingAFileIsAChange(mode: Mode) async throws {
        try await withWatcher(mode, files: ["a.json": "{}", "sub/b.json": "{}"]) { folder, _, changes in
            try FileManager.default.removeItem(atPath: folder.child("sub/b.json"))
            #expect(await changes.reach(1, within: Self.changeTimeout))
        }
    }

    @Test(arguments: Mode.allCases)
    func renamingAFolderIsAChangeAndTheRenamedFolderStaysWatched(mode: Mode) async throws {
        try await withWatcher(mode, files: ["sub/a.json": "{}"]) { folder, _, changes in
            try FileManager.default.moveItem(atPath: folder.child("sub"), toPath: folder.child("renamed"))
            #expect(await changes.reach(1, within: Self.changeTimeout))
            try folder.write("renamed/b.json", "{}")
            #expect(await changes.reach(2, within: Self.changeTimeout))
        }
    }

    @Test(arguments: Mode.allCases)
    func aNewFolderIsWatched(mode: Mode) async throws {
        try await withWatcher(mode, files: ["a.json": "{}"]) { folder, _, changes in
            // Two levels at once: the inner one may appear before the outer one is watched.
            try FileManager.default.createDirectory(atPath: folder.child("new/deeper"), withIntermediateDirectories: true)
            #expect(await changes.reach(1, within: Self.changeTimeout))
            try folder.write("new/deeper/b.json", "{}")
            #expect(await changes.reach(2, within: Self.changeTimeout))
            try folder.write("new/c.json", "{}")
            #expect(await changes.reach(3, within: Self.changeTimeout))
        }
    }

    @Test(arguments: Mode.allCases)
    func aBurstOfWritesIsOneChange(mode: Mode) async throws {
        let existing = Dictionary(uniqueKeysWithValues: (0..<100).map { ("burst/old\($0).json", "{}") })
        // The watcher thread is held inside `ignore` while the burst is written, so the burst is
        // one burst however slowly a busy machine writes it (the debounce's one-second cap, or a
        // polling walk in the middle, would otherwise split it): then it must be exactly one call.
        let gate = WatcherGate()
        try await withWatcher(mode, files: existing, ignore: { _ in gate.pass() }) { folder, _, changes in
            gate.close()
            // inotify calls `ignore` on an event; a polling walk calls it on its next walk.
            if mode == .inotify { try folder.write("burst/old0.json", #"{"index": 0}"#) }
            #expect(await gate.holdsTheWatcher(within: Self.changeTimeout))
            // A `git checkout`: 100 files rewritten, 100 new ones, in as many folders as it takes.
            for index in 0..<100 { try folder.write("burst/old\(index).json", #"{"index": \#(index)}"#) }
            for index in 0..<100 { try folder.write("burst/new\(index % 10)/n\(index).json", "{}") }
            gate.open()
            #expect(await changes.reach(1, within: Self.changeTimeout))
            // Longer than the one-second cap on a debounce, so a late second call would show.
            #expect(await !changes.reach(3, within: .milliseconds(1200)))
            #expect(await !changes.reach(2, within: mode.quiet))
            #expect(changes.count == 1, "\(changes.count) calls for one burst")
        }
    }

    @Test(arguments: Mode.allCases)
    func hiddenAndIgnoredPathsAreNotChanges(mode: Mode) async throws {
        let ignore: @Sendable (String) -> Bool = { $0.hasSuffix("/recorded.json") || $0.hasSuffix("/recordings") }
        try await withWatcher(mode, files: ["sub/a.json": "{}"], ignore: ignore) { folder, _, changes in
            try folder.write(".a.json.swp", "vim swap")
            try folder.write("sub/.tmp-atomic-write", "temporary")
            try folder.write(".git/objects/ab/cdef", "object")
            try folder.write("recorded.json", "{}")
            try folder.write("sub/recorded.json", "{}")
            try folder.write("recordings/x.json", "{}")
            // Emacs' lock file: a hidden symbolic link to nowhere.
            try FileManager.default.createSymbolicLink(atPath: folder.child(".#a.json"), withDestinationPath: "me@host.42")
            #expect(await !changes.reach(1, within: mode.quiet))

            // Saved in one step (a hidden temporary renamed over it): a write in place is two
            // steps, truncate and write, which a loaded machine can pause between for longer
            // than the polling interval, and the polling walk then rightly sees two changes.
            try folder.write("sub/.a.json.new", #"{"real": "change"}"#)
            #expect(rename(folder.child("sub/.a.json.new"), folder.child("sub/a.json")) == 0)
            #expect(await changes.reach(1, within: Self.changeTimeout))
            #expect(await !changes.reach(2, within: mode.quiet))
            #expect(changes.count == 1)
        }
    }

    @Test(arguments: Mode.allCases)
    func editorsThatWriteATemporaryAndRenameAreSeen(mode: Mode) async throws {
        try await withWatcher(mode, files: ["a.json": "{}"]) { folder, _, changes in
            // vim with `backupcopy=no`, and most atomic writers: write `.a.json.tmp`, rename over.
            try folder.write(".a.json.tmp", #"{"saved": "by an editor"}"#)
            try #require(rename(folder.child(".a.json.tmp"), folder.child("a.json")) == 0)
            #expect(await changes.reach(1, within: Self.changeTimeout))
        }
    }

    @Test(arguments: Mode.allCases)
    func aConfigMapStyleSymlinkSwapIsAChange(mode: Mode) async throws {
        // What kubelet lays out: `a.json -> ..data/a.json`, `..data -> ..2026_01`; an update
        // writes a new timestamped folder and renames a new `..data` link over the old one.
        try await withWatcher(
            mode,
            files: [
                "..2026_01/a.json": #"{"version": 1}"#,
                "..2026_02/a.json": #"{"version": 2, "more": true}"#,
            ],
            setUp: { folder in
                try FileManager.default.createSymbolicLink(atPath: folder.child("..data"), withDestinationPath: "..2026_01")
                try FileManager.default.createSymbolicLink(atPath: folder.child("a.json"), withDestinationPath: "..data/a.json")
                try FileManager.default.createSymbolicLink(atPath: folder.child("..data_tmp"), withDestinationPath: "..2026_02")
            }
        ) { folder, _, changes in
            try #require(rename(folder.child("..data_tmp"), folder.child("..data")) == 0)
            #expect(await changes.reach(1, within: Self.changeTimeout))
        }
    }

    @Test(arguments: Mode.allCases)
    func aWatchedPathThatIsASymlinkIsFollowedAndItsSwapIsAChange(mode: Mode) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(["first/a.json": "{}", "second/b.json": "{}"])
        try FileManager.default.createSymbolicLink(atPath: folder.child("current"), withDestinationPath: "first")
        let changes = ChangeCounter()
        let watcher = makeWatcher(mode, paths: [folder.child("current")], changes: changes)
        try watcher.start()
        defer { watcher.stop() }

        try folder.write("first/a.json", #"{"edited": "through the link"}"#)
        #expect(await changes.reach(1, within: Self.changeTimeout))

        try FileManager.default.createSymbolicLink(atPath: folder.child("current.new"), withDestinationPath: "second")
        try #require(rename(folder.child("current.new"), folder.child("current")) == 0)
        #expect(await changes.reach(2, within: Self.changeTimeout))

        // Now the link's new target is the one watched.
        try folder.write("second/c.json", "{}")
        #expect(await changes.reach(3, within: Self.changeTimeout))
    }

    @Test(arguments: Mode.allCases)
    func aWatchedFolderThatIsDeletedAndComesBackIsWatchedAgain(mode: Mode) async throws {
        try await withWatcher(mode, files: ["sub/a.json": "{}"]) { folder, _, changes in
            try FileManager.default.removeItem(atPath: folder.path)
            #expect(await changes.reach(1, within: Self.changeTimeout))
            try folder.write("sub/a.json", #"{"back": true}"#)
            #expect(await changes.reach(2, within: Self.changeTimeout))
            try folder.write("sub/b.json", "{}")
            #expect(await changes.reach(3, within: Self.changeTimeout))
        }
    }

    @Test(arguments: Mode.allCases)
    func aRootThatMayBeMissingIsWatchedOnceItIsMade(mode: Mode) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("data/a.json", "{}")
        let changes = ChangeCounter()
        let routes = folder.child("routes")
        let watcher = makeWatcher(mode, paths: [folder.child("data"), routes], mayBeMissing: [routes], changes: changes)
        try watcher.start()
        defer { watcher.stop() }

        try folder.write("routes/a.json", "[]")
        #expect(await changes.reach(1, within: Self.changeTimeout))
        try folder.write("routes/b.json", "[]")
        #expect(await changes.reach(2, within: Self.changeTimeout))
    }

    @Test(arguments: Mode.allCases)
    func stopIsPromptAndNothingIsCalledAfterIt(mode: Mode) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("a.json", "{}")
        let changes = ChangeCounter()
        let watcher = makeWatcher(mode, paths: [folder.path], changes: changes)
        try watcher.start()

        try folder.write("a.json", #"{"first": "edit"}"#)
        #expect(await changes.reach(1, within: Self.changeTimeout))

        // Stop with a burst still being debounced: it is dropped.
        try folder.write("b.json", "{}")
        watcher.stop()
        let countAtStop = changes.count

        try folder.write("c.json", "{}")
        try FileManager.default.removeItem(atPath: folder.child("a.json"))
        #expect(await !changes.reach(countAtStop + 1, within: mode.quiet))
        watcher.stop()  // a second stop is harmless
    }

    /// stop() wakes the thread at once: it waits for no debounce, no burst limit, no polling
    /// interval. All three are a minute here, so a wall-clock bound with room for a loaded
    /// machine still tells the two apart.
    @Test(arguments: Mode.allCases)
    func stopDoesNotWaitForTheDebounceOrThePollingInterval(mode: Mode) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("a.json", "{}")
        let changes = ChangeCounter()
        let watcher = FileWatcher(
            paths: [folder.path], debounce: .seconds(60), maxDelay: .seconds(60), pollInterval: .seconds(60),
            ignore: { _ in false }, forcePolling: mode == .polling
        ) { changes.record() }
        try watcher.start()
        try folder.write("b.json", "{}")
        let took = try await blocking { ContinuousClock().measure { watcher.stop() } }
        #expect(took < .milliseconds(500) * loadAllowance, "stop() took \(took)")
        #expect(changes.count == 0)
    }

    @Test(arguments: Mode.allCases)
    func stopFromInsideOnChangeEndsTheWatcher(mode: Mode) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let changes = ChangeCounter()
        let slot = WatcherSlot()
        let watcher = FileWatcher(paths: [folder.path], forcePolling: mode == .polling) {
            changes.record()
            slot.take()?.stop()
        }
        slot.put(watcher)
        try watcher.start()

        try folder.write("a.json", "{}")
        #expect(await changes.reach(1, within: Self.changeTimeout))
        try folder.write("b.json", "{}")
        #expect(await !changes.reach(2, within: mode.quiet))
        watcher.stop()
    }

    @Test(arguments: Mode.allCases)
    func startSaysWhichPathCannotBeWatchedAndWhy(mode: Mode) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("file.json", "{}")

        let missing = FileWatcher(paths: [folder.path, folder.child("missing")], forcePolling: mode == .polling) {}
        let error = try #require(throws: FileWatcher.WatchError.self) { try missing.start() }
        #expect(error.path == folder.child("missing"))
        #expect(error.description == "cannot watch \(folder.child("missing")): No such file or directory")
        missing.stop()

        let file = FileWatcher(paths: [folder.child("file.json")], forcePolling: mode == .polling) {}
        #expect(throws: FileWatcher.WatchError.self) { try file.start() }
    }

    #if os(Linux)
        /// With a missing root (the default routes folder nobody made), the idle watcher looks for it
        /// every poll interval. That look must not walk the trees that are there: with 10,000 files it
        /// listed them all twice a second. The walk happens once the root is back.
        @Test
        func lookingForAMissingRootDoesNotWalkTheOtherTrees() throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            try folder.write(["data/a/one.json": "{}", "data/b/two.json": "{}"])
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            try #require(fd >= 0)
            defer { close(fd) }
            let walked = Lock(0)
            let ignore: (String) -> Bool = { _ in
                walked.withLock { $0 += 1 }; return false
            }
            let roots = [folder.child("data"), folder.child("routes")]

            var table = Inotify.Table()
            try table.build(fd: fd, roots: roots, ignore: ignore, strict: true, mayBeMissing: [folder.child("routes")])
            #expect(table.missingRootCount == 1)
            let walkedAtStart = walked.withLock { $0 }
            #expect(walkedAtStart == 2)  // data/a and data/b

            #expect(!table.missingRootMayBeBack())
            #expect(walked.withLock { $0 } == walkedAtStart)

            try folder.write("routes/users.json", "[]")
            #expect(table.missingRootMayBeBack())
            table.rebuild(fd: fd, roots: roots, ignore: ignore)
            #expect(table.missingRootCount == 0)
            #expect(!table.missingRootMayBeBack())
        }
    #endif

    @Test
    func modeIsInotifyOnLinuxUnlessPollingIsForced() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let watcher = FileWatcher(paths: [folder.path]) {}
        try watcher.start()
        defer { watcher.stop() }
        #if os(Linux)
            #expect(watcher.mode == "inotify")
            #expect(watcher.fallbackReason == nil)
        #else
            #expect(watcher.mode == "polling")
        #endif
        #expect(FileWatcher(paths: [folder.path], forcePolling: true) {}.mode == "polling")
    }

    // MARK: - Helpers

    private func makeWatcher(
        _ mode: Mode, paths: [String], mayBeMissing: Set<String> = [],
        ignore: @escaping @Sendable (String) -> Bool = { _ in false }, changes: ChangeCounter
    ) -> FileWatcher {
        FileWatcher(paths: paths, mayBeMissing: mayBeMissing, ignore: ignore, forcePolling: mode == .polling) { changes.record() }
    }

    /// A temporary folder holding `files`, watched for the length of `body`.
    private func withWatcher(
        _ mode: Mode, files: [String: String],
        ignore: @escaping @Sendable (String) -> Bool = { _ in false },
        setUp: (TemporaryFolder) throws -> Void = { _ in },
        _ body: (TemporaryFolder, FileWatcher, ChangeCounter) async throws -> Void
    ) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(files)
        try setUp(folder)
        let changes = ChangeCounter()
        let watcher = makeWatcher(mode, paths: [folder.path], ignore: ignore, changes: changes)
        try watcher.start()
        defer { watcher.stop() }
        #expect(watcher.mode == (mode == .polling ? "polling" : Self.nativeMode))
        try await body(folder, watcher, changes)
    }

    #if os(Linux)
        static let nativeMode = "inotify"
    #else
        static let nativeMode = "polling"
    #endif
}

/// Counts `onChange` calls and lets a test await a count, with a deadline instead of a sleep.
private final class ChangeCounter: Sendable {
    private struct State {
        var count = 0
        var nextWaiter = 0
        var waiters: [Int: (target: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]
    }

    private let state = Lock(State())

    var count: Int { state.withLock { $0.count } }

    func record() {
        let ready = state.withLock { state in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.value.target <= count }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// True as soon as `target` calls have happened; false if `timeout` passes first.
    func reach(_ target: Int, within timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let id: Int? = state.withLock { state in
                if state.count >= target { return nil }
                let id = state.nextWaiter
                state.nextWaiter += 1
                state.waiters[id] = (target, continuation)
                return id
            }
            guard let id else { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = self.state.withLock { $0.waiters.removeValue(forKey: id) }
                expired?.continuation.resume(returning: false)
            }
        }
    }
}

/// Lets `onChange` reach its own watcher (and lets go of it, breaking the cycle).
private final class WatcherSlot: Sendable {
    private let watcher = Lock<FileWatcher?>(nil)
    func put(_ value: FileWatcher) { watcher.withLock { $0 = value } }
    func take() -> FileWatcher? { watcher.withLock { $0.take() } }
}

/// Holds the watcher thread in its `ignore` call (the first one after `close()`) until `open()`.
/// Only the watcher thread blocks; the test awaits it without holding a thread of the pool.
private final class WatcherGate: Sendable {
    private struct State {
        var closed = false
        var holding = false
        var waiter: CheckedContinuation<Bool, Never>?
    }
    private let state = Lock(State())
    private let released = DispatchSemaphore(value: 0)

    func close() { state.withLock { $0.closed = true } }

    /// Called by the watcher thread; never ignores anything.
    func pass() -> Bool {
        let waiter: CheckedContinuation<Bool, Never>?? = state.withLock { state in
            guard state.closed else { return nil }
            state.closed = false
            state.holding = true
            defer { state.waiter = nil }
            return .some(state.waiter)
        }
        guard let waiter else { return false }
        waiter?.resume(returning: true)
        released.wait()
        return false
    }

    /// True once the watcher thread waits in `pass()`; false if `timeout` passes first.
    func holdsTheWatcher(within timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let holding = state.withLock { state in
                if !state.holding { state.waiter = continuation }
                return state.holding
            }
            if holding { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = self.state.withLock { state in
                    defer { state.waiter = nil }; return state.waiter
                }
                expired?.resume(returning: false)
            }
        }
    }

    func open() { released.signal() }
}
