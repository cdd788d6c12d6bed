#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import MockdCore

/// What recording the answers to one request would write, decided before anything is written:
/// `--record` writes it at once; a HAR import gathers the plans of every entry, prints them
/// (`--dry-run`) or writes them with the route table once at the end.
struct RecordPlan {
    /// One file to write atomically; a mock file not asked to overwrite is written only when its
    /// name is still free then (`replace` false), so a file that appeared meanwhile is kept.
    struct Write {
        var path: String
        var bytes: [UInt8]
        var replace: Bool
        var isMockFile: Bool
    }

    var outcome: RecordOutcome
    var writes: [Write] = []
    /// The route table after this plan, when it changed.
    var table: RouteTable?

    /// Writes the mock file `target`; the recorded routes of the same request (`shadowing`, their
    /// indices in `table`) go, since routes win over files and would answer instead.
    static func mockFile(_ target: String, _ bytes: [UInt8], replace: Bool, shadowing: [Int], in table: RouteTable) -> RecordPlan {
        var plan = RecordPlan(outcome: .wroteMock(target), writes: [.init(path: target, bytes: bytes, replace: replace, isMockFile: true)])
        if !shadowing.isEmpty {
            var updated = table
            updated.remove(shadowing)
            plan.table = updated
        }
        return plan
    }
}

extension Recorder {
    /// The plan for `responses` (in order; more than one makes a `responses` sequence, which
    /// only a route can say) to `request`, against `table` as it is and the mock files
    /// `existingMockFile` finds (a name → its path relative to the root). `undoneCoding`: the
    /// `Content-Encoding` the bodies came in before they were decoded.
    func plan(
        _ request: MockRequest, path: String, _ responses: [BuiltResponse], undoneCoding: String? = nil,
        table: RouteTable, existingMockFile: (String) -> String?
    ) -> RecordPlan {
        // A query that matters: once this method and path have a plain mock (the first answer
        // recorded), an answer for another query becomes a route matching that query, so every
        // page of a paged endpoint is kept, not only the first.
        let queryMatters = plainMockExists(request, path: path, table: table, existingMockFile: existingMockFile)
        let queryMatch = queryMatters ? Self.queryMatch(request) : nil
        if queryMatters && queryMatch == nil {
            return RecordPlan(
                outcome: .skipped("the query \(request.rawQuery) cannot be matched literally (a repeated name, or *, ?, [ in a value)"))
        }
        var existingRoutes = table.indices(method: request.method, path: path, scenario: scenario)
        if let queryMatch { existingRoutes = existingRoutes.filter { table.routes[$0]["match"] == queryMatch } }
        if queryMatch == nil, responses.count == 1, let mock = mockFileBody(request, path: path, responses[0]) {
            let existingFile = existingMockFile(mock.name)
            if !overwrite {
                if let existingFile { return RecordPlan(outcome: .keptExisting(root + "/" + existingFile)) }
                if let index = existingRoutes.first { return RecordPlan(outcome: .keptExisting("\(routesFile)#\(index)")) }
            }
            let target = root + "/" + (existingFile ?? mockFolder + mock.name)
            return .mockFile(target, Array(mock.bytes), replace: overwrite, shadowing: existingRoutes, in: table)
        }

        if !overwrite {
            if let index = existingRoutes.first { return RecordPlan(outcome: .keptExisting("\(routesFile)#\(index)")) }
            let name = MockFileName.forRequest(method: request.method, path: path)
            if queryMatch == nil, Self.isSafeFileName(name), let existingFile = existingMockFile(name) {
                return RecordPlan(outcome: .keptExisting(root + "/" + existingFile))
            }
        }
        var writes: [RecordPlan.Write] = []
        var answers: [JSONValue] = []
        let named = queryMatch == nil ? path : path + "?" + request.rawQuery
        for (position, response) in responses.enumerated() {
            var answer: [(key: String, value: JSONValue)] = [("status", .number(response.status))]
            let headers = routeHeaders(response.headers)
            if !headers.isEmpty { answer.append(("headers", .object(headers.map { ($0.name, .string($0.value)) }))) }
            if !response.body.isEmpty {
                // The body file is named for its type, so it opens in the right program and a
                // route without a Content-Type header is still served as what it is.
                // A scenario's body has a name of its own: the base route's body stays as it is.
                let relative =
                    Self.bodiesFolder + "/"
                    + Self.bodyFileName(
                        method: request.method,
                        path: (scenario.map { "scenario " + $0 + " " } ?? "") + named + (position == 0 ? "" : " #\(position + 1)"),
                        extension: Self.fileExtension(for: response.headers.first(named: "Content-Type")))
                answer.append(("file", .string(relative)))
                writes.append(.init(path: root + "/" + relative, bytes: response.body, replace: true, isMockFile: false))
            }
            answers.append(.object(answer))
        }
        // The name says a compressed answer was saved decoded: why the route has no
        // Content-Encoding although the upstream sent one.
        var route: [(key: String, value: JSONValue)] = [
            ("name", .string("recorded \(request.method) \(named)" + (undoneCoding.map { " (\($0) undone)" } ?? ""))),
            ("method", .string(request.method)),
        ]
        if Self.needsPattern(path) {
            route.append(("pathPattern", .string(Self.pattern(for: path))))
        } else {
            route.append(("path", .string(path)))
        }
        if let scenario { route.append(("scenario", .string(scenario))) }
        if let queryMatch { route.append(("match", queryMatch)) }
        if answers.count == 1 {
            route.append(("response", answers[0]))
        } else {
            route.append(("responses", .array(answers)))
        }
        var updated = table
        let index = updated.put(.object(route), replacing: existingRoutes)
        return RecordPlan(outcome: .wroteRoute(index), writes: writes, table: updated)
    }

    /// Where new mock files go, relative to the root: the scenario's folder, or the root itself.
    var mockFolder: String { scenario.map { "scenarios/\($0)/" } ?? "" }

    /// A mock answers this method and path whatever the query: a file, or a recorded route without conditions.
    func plainMockExists(_ request: MockRequest, path: String, table: RouteTable, existingMockFile: (String) -> String?) -> Bool {
        guard !request.rawQuery.isEmpty else { return false }
        if table.indices(method: request.method, path: path, scenario: scenario).contains(where: { table.routes[$0]["match"] == nil }) {
            return true
        }
        let name = MockFileName.forRequest(method: request.method, path: path)
        return Self.isSafeFileName(name) && existingMockFile(name) != nil
    }
}
