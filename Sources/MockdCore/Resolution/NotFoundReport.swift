/// The 404 a miss gets: what was looked for and what was near, so the user knows which
/// file to create.
package enum NotFoundReport {
    /// At most this many near names are listed.
    static let nearLimit = 5
    package static func response(
        for request: MockRequest, scenario: String, in snapshot: Snapshot,
        cache: NotFoundCache = NotFoundCache(), failedReload: FailedReload? = nil
    ) -> BuiltResponse {
        // Near routes depend on headers and bodies, so only reports without them are cached.
        let near = nearRoutes(for: request, scenario: scenario, in: snapshot)
        let key = NotFoundCache.Key(method: request.method, path: request.path, scenario: scenario)
        if near.isEmpty, let cached = cache.report(for: key) { return cached }
        let report = BuiltResponse.json(
            status: 404,
            body(
                for: request, scenario: scenario, in: snapshot, nearRoutes: near, cache: cache,
                failedReload: failedReload),
            origin: .notFound)
        return near.isEmpty ? cache.keep(report, for: key) : report
    }

    static func body(
        for request: MockRequest, scenario: String, in snapshot: Snapshot, nearRoutes: [JSONValue] = [],
        cache: NotFoundCache = NotFoundCache(), failedReload: FailedReload? = nil
    ) -> String {
        let name = MockFileName.forRequest(method: HTTPMethods.alsoAnsweredAs(request.method) ?? request.method, path: request.path)
        var lookedFor: [String] = []
        if snapshot.overlays[scenario] != nil || scenario != Scenario.default {
            lookedFor.append("\(snapshot.rootDisplayPath)/\(MockDataLoader.scenariosFolder)/\(scenario)/\(name)")
        }
        lookedFor.append("\(snapshot.rootDisplayPath)/\(name)")
        let other = otherMethods(path: request.path, except: request.method, in: snapshot)
        let near = nearNames(to: name, in: snapshot, cache: cache)
        let unserved = nearUnserved(to: name, in: snapshot)
        var hint =
            other.isEmpty && near.isEmpty && nearRoutes.isEmpty
            ? "create \(snapshot.rootDisplayPath)/\(name) with the JSON to answer"
            : "create \(snapshot.rootDisplayPath)/\(name), or check the method and path against the names listed here"
        if let first = unserved.first {
            hint = "rename \(snapshot.rootDisplayPath)/\(first.relativePath) (\(first.why)), or " + hint
        }
        if !snapshot.operations.isEmpty,
            let (operation, base) = snapshot.operations.differingByBasePath(method: request.method, path: request.path)
        {
            let missing = base.hasPrefix("-") ? "has \(base.dropFirst()) too many" : "lacks the base path \(base)"
            hint =
                "\(operation.method) \(operation.pathTemplate) (\(operation.source)) answers this path but for the base path: the request \(missing); "
                + "point the app's base URL at the document's servers URL"
        }
        if let failedReload { hint = failedReload.hint(file: "\(snapshot.rootDisplayPath)/\(name)") }
        var report: JSONValue = [
            "error": .string("no mock for \(request.method) \(request.path)"),
            "method": .string(request.method),
            "path": .string(request.path),
            "scenario": .string(scenario),
            "file": .string(name),
            "lookedFor": .array(lookedFor.map { .string($0) }),
            "otherMethods": .array(other.map { .object([("method", .string($0.method)), ("file", .string($0.file))]) }),
            "nearNames": .array(near.map { .string($0) }),
            "nearRoutes": .array(nearRoutes),
            "notServed": .array(unserved.map { .object([("file", .string($0.relativePath)), ("why", .string($0.why))]) }),
            "nearOperations": .array(snapshot.operations.near(request.path).map { .string("\($0.method) \($0.pathTemplate)") }),
            "hint": .string(hint),
        ]
        if let failedReload, case .object(var members) = report {
            members.insert(("reloadFailed", failedReload.json), at: members.count - 1)
            report = .object(members)
        }
        return report.prettyPrinted + "\n"
    }

    /// Routes whose path matches but that did not answer, and why: another method, another
    /// scenario, or the first condition that failed.
    static func nearRoutes(for request: MockRequest, scenario: String, in snapshot: Snapshot) -> [JSONValue] {
        guard !snapshot.routes.isEmpty else { return [] }
        var body = RequestBody(request.body)
        var near: [JSONValue] = []
        let parts = PathPattern.split(request.path)
        // Only the routes indexed under the path's first segment: a miss does not scan every table.
        for route in snapshot.routeIndex.pathCandidates(parts: parts) where route.path.match(request.path, parts: parts) != nil {
            guard let why = whyNotAnswered(route, request, scenario: scenario, &body) else { continue }
            near.append(
                .object([
                    ("route", .string(route.source)), ("method", .string(route.methods.description)),
                    ("path", .string(route.path.source)), ("why", .string(why)),
                ]))
            if near.count == 10 { break }
        }
        return near
    }

    /// Why `route`, whose path matches, did not answer: another method, another scenario, or
    /// the first condition that failed; nil when nothing stops it. The 404 report and
    /// GraphQL's both say it in these words.
    static func whyNotAnswered(_ route: Route, _ request: MockRequest, scenario: String, _ body: inout RequestBody) -> String? {
        if !route.methods.contains(request.method) {
            return "method is \(route.methods.description), not \(request.method)"
        }
        if let only = route.scenario, only != scenario {
            return "only in scenario \(only) (this request: \(scenario); send X-Mock-Scenario: \(only))"
        }
        if let failed = route.conditions.first(where: { !Resolver.holds($0, request, &body) }) {
            return "condition not met: \(failed.description)"
        }
        return nil
    }

    /// Files for the same path with another method: `[{"method": "POST", "file": "mock_…_post.json"}]`.
    static func otherMethods(path: String, except method: String, in snapshot: Snapshot) -> [(method: String, file: String)] {
        MockFileName.knownMethods.compactMap { other in
            guard !HTTPMethods.answers(method, as: other) else { return nil }
            let name = MockFileName.forRequest(method: other, path: path)
            return snapshot.files[name] == nil ? nil : (other, name)
        }
    }

    /// Files under the root that look like mocks but are not served, named like `name` but for
    /// case or two edits (`.josn`, `_GET`, `Mock_`): the likely reason for this miss.
    /// Every file meant for this very request (its name read as intended: `.josn`, `.json.json`,
    /// `_GET`) comes first, then the others a small edit away, up to the limit.
    static func nearUnserved(to name: String, in snapshot: Snapshot) -> [UnservedFile] {
        guard !snapshot.unserved.isEmpty else { return [] }
        let lowered = name.lowercased()
        let target = Array(lowered.utf8)
        let bound = target.count > 24 ? 3 : 2
        var meant: [UnservedFile] = []
        var found: [(distance: Int, file: UnservedFile)] = []
        for file in snapshot.unserved {
            let candidate = file.name.lowercased()
            if intendedName(candidate) == lowered {
                meant.append(file)
                continue
            }
            guard abs(candidate.utf8.count - target.count) <= bound,
                let distance = EditDistance.bounded(target, candidate.utf8, bound: bound)
            else { continue }
            found.append((distance, file))
        }
        found.sort { ($0.distance, $0.file.relativePath) < ($1.distance, $1.file.relativePath) }
        return meant.sorted { $0.relativePath < $1.relativePath } + found.prefix(max(0, nearLimit - meant.count)).map(\.file)
    }

    /// A lower-cased name as its author meant it: one `.json` of `.json.json`, and an extension
    /// two edits from `json` (`.josn`, `.jsn`, `.jsno`) read as `.json`.
    static func intendedName(_ name: String) -> String {
        var name = name
        while name.hasSuffix(".json.json") { name.removeLast(5) }
        guard let dot = name.lastIndex(of: ".") else { return name }
        let ext = name[name.index(after: dot)...]
        if ext != "json", EditDistance.bounded(Array(ext.utf8), "json".utf8, bound: 2) != nil {
            return name[..<dot] + ".json"
        }
        return name
    }

    /// File names at most two edits away (three for long names), closest first.
    static func nearNames(to name: String, in snapshot: Snapshot, cache: NotFoundCache = NotFoundCache()) -> [String] {
        let length = name.utf8.count
        let bound = length > 24 ? 3 : 2
        let target = Array(name.utf8)
        var found: [(distance: Int, name: String)] = []
        let namesByLength = cache.namesByLength(of: snapshot)
        for candidateLength in (length - bound)...(length + bound) {
            for candidate in namesByLength[candidateLength] ?? [] where candidate != name {
                if let distance = EditDistance.bounded(target, candidate.utf8, bound: bound) {
                    found.append((distance, candidate))
                }
            }
        }
        found.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return found.prefix(nearLimit).map(\.name)
    }
}
