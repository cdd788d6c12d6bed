#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
package import Logging
package import MockdCore
import MockdSystem
import MockdLock
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch
import Synchronization

/// Saves proxied answers as mocks (`--record`): a 200 JSON answer becomes
/// `mock_<path>_<method>.json` in the root, anything else a route in `<routes>/recorded.json`
/// with its body in `<root>/recorded/`.
///
/// Never overwrites an existing mock unless `overwrite`; every write is atomic (the system
/// layer's `AtomicFile`: a temp file in the same folder, fsync, rename, or link when it must not
/// replace), so a reload or a reader never sees half a file; file names are built so no request
/// path can make it write outside the root or the routes folder. Existing mocks are looked up in
/// the server's current snapshot (`findMocks(in:)`). Thread-safe: writes are serialized.
package final class Recorder: Sendable {
    package let root: String
    let routesDirectory: String
    let overwrite: Bool
    /// Mocks go to `scenarios/<name>/` and routes say `"scenario"`: nil for the base mocks.
    let scenario: String?
    /// Header names (lower case) that make an answer a route, besides `meaningfulHeaders` (`--record-headers`).
    let keptHeaders: Set<String>
    /// Lines at info or below, the level swift-log's guide gives a library (a failed recording
    /// too: one can come with every request); the executable's level decides what is shown.
    let logger: Logger
    /// Answers seen per `METHOD path` during this run (bounded: past `maxTracked` keys, new ones
    /// are not tracked, and the existing-file check alone keeps them from being written twice).
    let seen = Lock<[String: Int]>([:])
    static let maxTracked = 100_000
    /// Every file this recorder wrote, absolute, for the watcher to tell its own writes from the user's.
    let written = Lock<Set<String>>([])
    /// The working folder, which relative roots are under: the watcher names files by absolute path.
    private let workingDirectory: String
    /// Where the mocks being served are looked up (`findMocks(in:)`); nil: only the root itself.
    private let snapshotSource = Lock<(@Sendable () -> Snapshot?)?>(nil)
    /// The thread `recordOffThePool` writes on (fsync blocks: not on the Swift concurrency pool).
    let writer = DispatchQueue(label: "mockd-record")

    /// The route table the recorder writes, in the routes folder.
    static let routesFileName = "recorded.json"
    /// The folder under the root that holds recorded route bodies.
    static let bodiesFolder = "recorded"

    package init(
        root: String, routesDirectory: String, overwrite: Bool, scenario: String? = nil, keptHeaders: [String] = [], logger: Logger
    ) {
        self.root = PathText.withoutTrailingSlashes(root.isEmpty ? "." : root)
        self.routesDirectory = PathText.withoutTrailingSlashes(routesDirectory.isEmpty ? "." : routesDirectory)
        self.overwrite = overwrite
        self.scenario = scenario
        self.keptHeaders = Set(keptHeaders.map { $0.lowercased() })
        self.logger = logger
        workingDirectory = FileManager.default.currentDirectoryPath
    }

    /// `<routes>/recorded.json`.
    package var routesFile: String { routesDirectory + "/" + Self.routesFileName }

    /// Where to look for the mocks already served: the server's current snapshot (which it
    /// replaces on reload). Set once the server exists, before the first answer is recorded.
    package func findMocks(in snapshot: @escaping @Sendable () -> Snapshot?) {
        snapshotSource.withLock { $0 = snapshot }
    }

    func currentSnapshot() -> Snapshot? {
        snapshotSource.withLock { $0 }?()
    }

    /// `record` on the recorder's own thread, so its blocking writes (fsync) never hold a
    /// thread of the Swift concurrency pool; the calling task waits without blocking.
    func recordOffThePool(_ request: MockRequest, _ response: BuiltResponse) async -> RecordOutcome {
        await withCheckedContinuation { continuation in
            writer.async { continuation.resume(returning: self.record(request, response)) }
        }
    }

    /// `record(_:_:)` of a whole proxy outcome on the recorder's own thread; `then` gets what
    /// was done there, after the write.
    package func recordOffThePool(
        _ request: MockRequest, _ outcome: ProxyOutcome, then: @escaping @Sendable (RecordOutcome) -> Void
    ) {
        writer.async { then(self.record(request, outcome)) }
    }

    /// Records what the proxy got for `request`: the upstream's answer, never mockd's own
    /// 502/503/504 (decided on the outcome's typed `failure`, not on how its answer is labelled).
    package func record(_ request: MockRequest, _ outcome: ProxyOutcome) -> RecordOutcome {
        if let failure = outcome.failure {
            return .skipped("not an upstream answer (\(failure.status) from mockd: \(failure.kind.rawValue))")
        }
        return record(request, outcome.response, undoneCoding: outcome.undoneCoding)
    }

    /// Records one answer the upstream gave (`ProxyOutcome.response` of an outcome without a
    /// failure). Does blocking file I/O: call it off the server's network threads.
    /// `undoneCoding`: the `Content-Encoding` the body came in, said in a route's name.
    package func record(_ request: MockRequest, _ response: BuiltResponse, undoneCoding: String? = nil) -> RecordOutcome {
        if let why = Self.notRecordable(request, response) { return .skipped(why) }
        let path = Self.normalized(request.path)
        // The query is part of what was asked: /api/feed?page=2 is not a repeat of ?page=1.
        let key = request.method + " " + path + (request.rawQuery.isEmpty ? "" : "?" + request.rawQuery)
        return once(key) { save(request, path: path, response, undoneCoding: undoneCoding) }
    }

    /// `record` the first time `key` comes in this run, logged; a repeat is `.duplicate`. The
    /// lock also serializes the writes: two recordings never race on recorded.json.
    func once(_ key: String, _ record: () -> RecordOutcome) -> RecordOutcome {
        seen.withLock { seen -> RecordOutcome in
            let count = seen[key, default: 0] + 1
            if count > 1 || seen.count < Self.maxTracked { seen[key] = count }
            if count > 1 { return .duplicate(count) }
            let outcome = record()
            log(outcome, for: key)
            return outcome
        }
    }

    /// One line for what was written or kept (a skip or a repeat says nothing here).
    func log(_ outcome: RecordOutcome, for key: String) {
        switch outcome {
        case .wroteMock(let file): logger.info("recorded", metadata: ["mockd.request": "\(key)", "mockd.file": "\(file)"])
        case .wroteRoute(let index):
            logger.info("recorded", metadata: ["mockd.request": "\(key)", "mockd.file": "\(routesFile)#\(index)"])
        case .keptExisting(let existing):
            logger.info(
                "not recording: the mock exists (--record-overwrite replaces it)",
                metadata: ["mockd.request": "\(key)", "mockd.file": "\(existing)"])
        case .failed(let why): logger.info("could not record", metadata: ["mockd.request": "\(key)", "mockd.reason": "\(why)"])
        case .duplicate, .skipped: break
        }
    }

    /// True for a file this recorder wrote (a mock, a body, `recorded.json`) and for the hidden
    /// temp files of its atomic writes (`.dat.nosync…`, renamed away at once): a file watcher
    /// ignores these so recording does not trigger reloads.
    package func isOwnWrite(_ path: String) -> Bool {
        if PathText.lastComponent(path, .lastPathComponent).hasPrefix(Self.temporaryFilePrefix) { return true }
        let key = writtenKey(path)
        return written.withLock { $0.contains(key) }
    }

    /// How `AtomicFile` names its temp file in the target's folder (`.dat.nosync<pid>.<random>`,
    /// as Foundation's atomic write does): `isOwnWrite` relies on it.
    static let temporaryFilePrefix = AtomicFile.temporaryPrefix

    /// One spelling per file: absolute (the default root, `MockData`, is relative, and the
    /// watcher asks with absolute paths) and standardized.
    private func writtenKey(_ path: String) -> String {
        PathText.standardized(path.hasPrefix("/") ? path : workingDirectory + "/" + path)
    }

    // MARK: - Files

    /// Writes `bytes` to `path` with `AtomicFile` (temp file, fsync, rename; with `replace:
    /// false`, link, which fails when the name is taken), remembering it as this recorder's.
    func writeAtomically(_ bytes: Data, to path: String, replace: Bool = true) throws {
        let key = writtenKey(path)
        written.withLock { _ = $0.insert(key) }
        try AtomicFile.write(Array(bytes), to: path, replace: replace)
    }

    /// The system's reason (`strerror`) for a failed file operation; FoundationEssentials
    /// reports those (creating a folder) as a CocoaError around the POSIX error.
    static func describe(_ error: any Error) -> String {
        if let write = error as? AtomicFile.WriteError { return write.reason }
        if let posix = (error as? CocoaError)?.underlying as? POSIXError ?? error as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        // Rare (an invalid file name, no free temp name): Foundation's generic wording.
        if let cocoa = error as? CocoaError {
            return "The operation could not be completed. (NSCocoaErrorDomain error \(cocoa.code.rawValue).)"
        }
        return "\(error)"
    }
}
