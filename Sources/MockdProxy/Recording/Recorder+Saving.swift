#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import MockdCore
import MockdSystem

/// Writing one answer as a mock file or a route of `recorded.json`.
extension Recorder {
    func save(_ request: MockRequest, path: String, _ response: BuiltResponse, undoneCoding: String? = nil) -> RecordOutcome {
        let table: RouteTable
        switch RouteTable.read(routesFile) {
        case .success(let read): table = read
        case .failure(let problem): return .failed(problem.message)
        }
        return apply(
            plan(request, path: path, [response], undoneCoding: undoneCoding, table: table, existingMockFile: findMockFile(named:)))
    }

    /// Carries out a plan: its files, then the route table it changed; what was done.
    func apply(_ plan: RecordPlan) -> RecordOutcome {
        for write in plan.writes {
            do {
                try perform(write)
            } catch let error as AtomicFile.WriteError where error.alreadyExists && write.isMockFile {
                return .keptExisting(write.path)
            } catch {
                return .failed("\(write.isMockFile ? write.path : routesFile): \(Self.describe(error))")
            }
        }
        if let updated = plan.table {
            do {
                try writeTable(updated)
            } catch {
                return .failed("\(routesFile): \(Self.describe(error))")
            }
        }
        return plan.outcome
    }

    /// Writes one planned file, making its folder first.
    func perform(_ write: RecordPlan.Write) throws {
        try FileManager.default.createDirectory(atPath: FilePath.folder(of: write.path), withIntermediateDirectories: true)
        try writeAtomically(Data(write.bytes), to: write.path, replace: write.replace)
    }

    /// Writes `recorded.json` (its folder made first).
    func writeTable(_ table: RouteTable) throws {
        try FileManager.default.createDirectory(atPath: routesDirectory, withIntermediateDirectories: true)
        try writeAtomically(table.bytes(), to: routesFile)
    }

    /// `{"query": {"page": "2"}}` for the request's decoded arguments; nil when there are none or a
    /// value would read as a pattern (`*`, `?`, `[`), which a literal match cannot say.
    static func queryMatch(_ request: MockRequest) -> JSONValue? {
        guard !request.query.isEmpty else { return nil }
        var members: [(key: String, value: JSONValue)] = []
        for argument in request.query {
            let value = argument.value ?? ""
            if value.contains(where: { "*?[]\\".contains($0) }) || members.contains(where: { $0.key == argument.name }) { return nil }
            members.append((argument.name, .string(value)))
        }
        return .object([("query", .object(members))])
    }

    /// Headers for a recorded route: the answer's, less those about the transfer; same names joined.
    func routeHeaders(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        var result: [HTTPHeader] = []
        for header in headers where !Self.transferHeaders.contains(header.name.lowercased()) {
            if let at = result.firstIndex(where: { $0.name.lowercased() == header.name.lowercased() }) {
                result[at].value += ", " + header.value
            } else {
                result.append(header)
            }
        }
        return result
    }

    /// Where a mock file with this name already is, relative to the root: in the root itself
    /// (a file on disk, perhaps recorded this run), else where the current snapshot serves it
    /// from (any folder but `scenarios/`, which holds overlays; folders reached through links
    /// too, as the loader follows them). The snapshot, not a walk of the disk: a folder of
    /// 10,000 mocks is not read again for each recorded answer.
    /// With a scenario, only that scenario's folder counts: the base mocks are what it overlays.
    func findMockFile(named name: String) -> String? {
        if FileManager.default.fileExists(atPath: root + "/" + mockFolder + name) { return mockFolder + name }
        guard scenario == nil else { return nil }
        return currentSnapshot()?.files[name]?.relativePath
    }
}
