/// `mockd check --coverage`: the two ways mocks and their API descriptions (`--openapi`,
/// `--contract`) fall apart besides a body that breaks its schema — a documented operation no
/// mock file or route answers (`not mocked`), and a mock file or route for a request no document
/// has (`undocumented`). Files are fitted to operations as drift fits them (`ContractDrift`);
/// routes by their method and path, a `:name` standing for any value. Routes with `*`, `**`, a
/// `pathPattern` or any method, resources, and GraphQL or WebSocket routes are not counted.
/// At check time only: it walks every file against every operation.
package enum ContractCoverage {
    package static func findings(_ snapshot: Snapshot) -> [Diagnostic] {
        let tables = [snapshot.operations, snapshot.contracts].filter { !$0.isEmpty }
        guard !tables.isEmpty else { return [] }
        let indexes = tables.map(ContractDrift.StemIndex.init)
        let names = tables.flatMap(\.documents).map(\.name).joined(separator: ", ")
        var covered: Set<String> = []
        var found: [Diagnostic] = []
        for table in [snapshot.files] + snapshot.overlays.keys.sorted().compactMap({ snapshot.overlays[$0] }) {
            for file in table.values.sorted(by: { $0.relativePath < $1.relativePath }) {
                guard file.response.conversation == nil, case .mock(let method, let stem) = MockFileName.parse(file.name) else { continue }
                let operations = indexes.compactMap { $0.operation(method: method, stem: stem) }
                covered.formUnion(operations.map(\.source))
                if operations.isEmpty {
                    found.append(
                        Diagnostic(
                            .warning, file: snapshot.rootDisplayPath + "/" + file.relativePath,
                            "undocumented: \(names) has no \(method) operation this file answers"))
                }
            }
        }
        for route in snapshot.routes {
            guard case .segments(let segments, let source) = route.path, case .only(let methods) = route.methods,
                !route.conditions.contains(where: { if case .graphQL = $0 { true } else { false } })
            else { continue }
            var parts: [String] = []
            for segment in segments {
                switch segment {
                case .literal(let text): parts.append(text)
                case .parameter: parts.append("1")
                case .wildcard, .rest: parts = []
                }
                if parts.isEmpty { break }
            }
            guard parts.count == segments.count else { continue }
            let path = "/" + parts.joined(separator: "/")
            for method in methods {
                let operations = tables.compactMap { $0.operation(method: method, path: path) }
                covered.formUnion(operations.map(\.source))
                if operations.isEmpty {
                    let place = route.source.split(separator: "#", maxSplits: 1)
                    found.append(
                        Diagnostic(
                            .warning, file: String(place[0]), location: place.count > 1 ? "routes[\(place[1])]" : nil,
                            "undocumented: \(names) has no operation for \(method) \(source)"))
                }
            }
        }
        for operation in tables.flatMap(\.operations) where !covered.contains(operation.source) {
            found.append(Diagnostic(.warning, file: names, "not mocked: \(operation.source): no mock file or route answers it"))
        }
        return found
    }
}
