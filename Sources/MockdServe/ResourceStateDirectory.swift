#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import Logging
import MockdCore
import MockdSystem

/// `--state-dir DIR` at start: the folder made ready, and each resource's saved global state
/// put in place of its seed, unless the seed changed since (the seed wins) or the file is not
/// a usable state (a warning naming it and the place; the seed is served, and the file is
/// replaced at the resource's next change).
enum ResourceStateDirectory {
    /// Makes `folder` if needed; refuses one inside the mock root or a routes folder, where its
    /// files would be served as mocks and each write would reload mockd.
    static func prepare(_ folder: String, loader: MockDataLoader) throws(ServeFailure) {
        // Before the folder is made: a refused one is not left behind.
        let real = resolved(folder)
        for data in [loader.root] + loader.routesFolder.watched {
            guard let dataPath = FileReading.realPath(data), real == dataPath || real.hasPrefix(dataPath + "/") else { continue }
            throw ServeFailure.usage(
                "--state-dir \(folder) is inside \(data), whose files mockd serves and watches: choose a folder outside it")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw ServeFailure.usage("--state-dir \(folder): cannot make the folder: \(error)")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw ServeFailure.usage("--state-dir \(folder): cannot write there: \(String(cString: strerror(errno)))")
        }
    }

    /// `path` with symbolic links resolved as far as it exists, the rest appended as written.
    private static func resolved(_ path: String) -> String {
        if let real = FileReading.realPath(path) { return real }
        let absolute = path.hasPrefix("/") ? path : (FileReading.workingDirectory() ?? "") + "/" + path
        guard let slash = absolute.lastIndex(of: "/"), slash != absolute.startIndex else { return absolute }
        return resolved(String(absolute[..<slash])) + absolute[slash...]
    }

    /// Puts each saved state in `store` in place of its seed, and says so in the log.
    static func restore(_ snapshot: Snapshot, into store: ResourceStore, writer: ResourceStateWriter, logger: Logger) {
        for resource in snapshot.resources.all {
            for seed in resource.seeds.keys.sorted() {
                let path = writer.path(of: ResourceStore.Key(session: nil, resource: resource.identity, seed: seed))
                guard FileReading.exists(path) else { continue }
                var place: Logger.Metadata = ["mockd.resource": "\(resource.path)", "mockd.file": "\(path)"]
                if !seed.isEmpty { place["mockd.scenario"] = "\(seed)" }
                let bytes: [UInt8]
                do throws(FileReading.Failure) {
                    let (memory, count) = try FileReading.read(path)
                    defer { memory.deallocate() }
                    bytes = Array(memory.prefix(count))
                } catch {
                    logger.warning(
                        "resource state not read: the resource starts from its seed",
                        metadata: place.merging(["mockd.reason": "\(error.reason)"]) { $1 })
                    continue
                }
                switch ResourceStateFile.decode(bytes, for: resource, seed: seed, file: path) {
                case .restored(let items):
                    store.restore(items, of: resource, seed: seed)
                    logger.info(
                        "resource state restored",
                        metadata: place.merging([
                            "mockd.items": "\(items.count)",
                            "mockd.seedItems": "\(resource.seeds[seed]?.count ?? 0)",
                        ]) { $1 })
                case .seedChanged:
                    // As a reload does when a seed changes: its state starts over, on disk too.
                    writer.changed(ResourceStore.Key(session: nil, resource: resource.identity, seed: seed), nil)
                    logger.info("resource state removed: its seed changed since it was saved; the seed is served", metadata: place)
                case .invalid(let problem):
                    // The problem says where in the file and that the seed is served.
                    logger.warning("resource state not restored", metadata: place.merging(problem.logFields) { $1 })
                }
            }
        }
    }
}
