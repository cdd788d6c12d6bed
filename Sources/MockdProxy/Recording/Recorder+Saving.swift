#if canImport(FoundationEssentials)
import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
import Foundation
#endif
import MockdCore
import MockdSystem

/// Writing one answer as a mock file or a route of `recorded.json`.
extension Recorder {
    func save(_ request: MockRequest, path: String, _ response: BuiltResponse) -> RecordOutcome {
        let table: RouteTable
        switch RouteTable.read(routesFile) {
        case .success(let read): table = read
        case .failure(let problem): return .failed(problem.message)
        }
        let existingRoutes = table.indices(method: request.method, path: path)
        if let mock = mockFileBody(request, path: path, response) {
            let existingFile = findMockFile(named: mock.name)
            if !overwrite {
                if let existingFile { return .keptExisting(root + "/" + existingFile) }
                if let index = existingRoutes.first { return .keptExisting("\(routesFile)#\(index)") }
            }
            let target = root + "/" + (existingFile ?? mock.name)
            do {
                // Not asked to overwrite: a file that appeared meanwhile is kept, not replaced.
                try writeAtomically(mock.bytes, to: target, replace: overwrite)
                // A recorded route for the same request would shadow the new file (routes win): drop it.
                if !existingRoutes.isEmpty {
                    var updated = table
                    updated.remove(existingRoutes)
                    try writeAtomically(updated.bytes(), to: routesFile)
                }
            } catch let error as AtomicFile.WriteError where error.alreadyExists {
                return .keptExisting(target)
            } catch {
                return .failed("\(target): \(Self.describe(error))")
            }
            return .wroteMock(target)
        }

        if !overwrite {
            if let index = existingRoutes.first { return .keptExisting("\(routesFile)#\(index)") }
            let name = MockFileName.forRequest(method: request.method, path: path)
            if Self.isSafeFileName(name), let existingFile = findMockFile(named: name) { return .keptExisting(root + "/" + existingFile) }
        }
        var routeResponse: [(key: String, value: JSONValue)] = [("status", .number(response.status))]
        let headers = routeHeaders(response.headers)
        if !headers.isEmpty { routeResponse.append(("headers", .object(headers.map { ($0.name, .string($0.value)) }))) }
        var bodyFile: String? = nil
        if !response.body.isEmpty {
            let relative = Self.bodiesFolder + "/" + Self.bodyFileName(method: request.method, path: path)
            routeResponse.append(("file", .string(relative)))
            bodyFile = root + "/" + relative
        }
        var route: [(key: String, value: JSONValue)] = [
            ("name", .string("recorded \(request.method) \(path)")),
            ("method", .string(request.method)),
        ]
        if Self.needsPattern(path) {
            route.append(("pathPattern", .string(Self.pattern(for: path))))
        } else {
            route.append(("path", .string(path)))
        }
        route.append(("response", .object(routeResponse)))

        var updated = table
        let index = updated.put(.object(route), replacing: existingRoutes)
        do {
            if let bodyFile {
                try FileManager.default.createDirectory(atPath: root + "/" + Self.bodiesFolder, withIntermediateDirectories: true)
                try writeAtomically(Data(response.body), to: bodyFile)
            }
            try FileManager.default.createDirectory(atPath: routesDirectory, withIntermediateDirectories: true)
            try writeAtomically(updated.bytes(), to: routesFile)
        } catch {
            return .failed("\(routesFile): \(Self.describe(error))")
        }
        return .wroteRoute(index)
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
    func findMockFile(named name: String) -> String? {
        if FileManager.default.fileExists(atPath: root + "/" + name) { return name }
        return currentSnapshot()?.files[name]?.relativePath
    }
}
