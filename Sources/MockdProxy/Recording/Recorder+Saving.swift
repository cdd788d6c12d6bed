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
        // A query that matters: once this method and path have a plain mock (the first answer
        // recorded), an answer for another query becomes a route matching that query, so every
        // page of a paged endpoint is kept, not only the first.
        let queryMatters = plainMockExists(request, path: path, table: table)
        let queryMatch = queryMatters ? Self.queryMatch(request) : nil
        if queryMatters && queryMatch == nil {
            return .skipped("the query \(request.rawQuery) cannot be matched literally (a repeated name, or *, ?, [ in a value)")
        }
        var existingRoutes = table.indices(method: request.method, path: path)
        if let queryMatch { existingRoutes = existingRoutes.filter { table.routes[$0]["match"] == queryMatch } }
        if queryMatch == nil, let mock = mockFileBody(request, path: path, response) {
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
            if queryMatch == nil, Self.isSafeFileName(name), let existingFile = findMockFile(named: name) { return .keptExisting(root + "/" + existingFile) }
        }
        var routeResponse: [(key: String, value: JSONValue)] = [("status", .number(response.status))]
        let headers = routeHeaders(response.headers)
        if !headers.isEmpty { routeResponse.append(("headers", .object(headers.map { ($0.name, .string($0.value)) }))) }
        var bodyFile: String? = nil
        if !response.body.isEmpty {
            let named = queryMatch == nil ? path : path + "?" + request.rawQuery
            let relative = Self.bodiesFolder + "/" + Self.bodyFileName(method: request.method, path: named)
            routeResponse.append(("file", .string(relative)))
            bodyFile = root + "/" + relative
        }
        var route: [(key: String, value: JSONValue)] = [
            ("name", .string("recorded \(request.method) \(path)" + (queryMatch == nil ? "" : "?" + request.rawQuery))),
            ("method", .string(request.method)),
        ]
        if Self.needsPattern(path) {
            route.append(("pathPattern", .string(Self.pattern(for: path))))
        } else {
            route.append(("path", .string(path)))
        }
        if let queryMatch { route.append(("match", queryMatch)) }
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

    /// A mock answers this method and path whatever the query: a file, or a recorded route without conditions.
    func plainMockExists(_ request: MockRequest, path: String, table: RouteTable) -> Bool {
        guard !request.rawQuery.isEmpty else { return false }
        if table.indices(method: request.method, path: path).contains(where: { table.routes[$0]["match"] == nil }) { return true }
        let name = MockFileName.forRequest(method: request.method, path: path)
        return Self.isSafeFileName(name) && findMockFile(named: name) != nil
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
    func findMockFile(named name: String) -> String? {
        if FileManager.default.fileExists(atPath: root + "/" + name) { return name }
        return currentSnapshot()?.files[name]?.relativePath
    }
}
