extension ContractDrift {
    /// A resource's seeds held to the document as mock files are: each item to the answer of
    /// `GET <collection>/{id}` (status 200) when the document has it, else the whole seed to the
    /// answer of `GET <collection>`. A warning per violation, placed in the seed file
    /// (`MockData/entries.json: [3].name: breaks openapi api.yaml GET /entries/{id} 200: …`), at
    /// most `violationsPerFile` per seed. At load only.
    static func seedWarnings(resources: [Resource], operations: OperationTable, rootDisplay: String) -> [Diagnostic] {
        guard !operations.isEmpty else { return [] }
        var found: [Diagnostic] = []
        for resource in resources {
            guard let seedFile = resource.seedFile else { continue }
            let item = operations.operation(method: "GET", path: resource.path + "/1")
            let list = item == nil ? operations.operation(method: "GET", path: resource.path) : nil
            for (scenario, seed) in resource.seeds.sorted(by: { $0.key < $1.key }) {
                let shown = rootDisplay + "/" + (scenario.isEmpty ? seedFile : "scenarios/\(scenario)/\(seedFile)")
                var lines: [(location: String, message: String)] = []
                if let item {
                    for (index, id) in seed.order.enumerated() {
                        guard let value = seed.items[id]?.value,
                            let finding = OperationTable.contractFinding(item, status: 200, body: value)
                        else { continue }
                        lines += finding.violations.map { placed($0, in: "[\(index)]", against: finding.checkedAgainst) }
                    }
                } else if let list {
                    let all = JSONValue.array(seed.order.compactMap { seed.items[$0]?.value })
                    if let finding = OperationTable.contractFinding(list, status: 200, body: all) {
                        lines += finding.violations.map { placed($0, in: "", against: finding.checkedAgainst) }
                    }
                }
                found += lines.prefix(violationsPerFile).map {
                    Diagnostic(.warning, file: shown, location: $0.location.isEmpty ? nil : $0.location, $0.message)
                }
                if lines.count > violationsPerFile {
                    found.append(Diagnostic(.warning, file: shown, "\(lines.count - violationsPerFile) more places break the document"))
                }
            }
        }
        return found
    }

    /// `body.name: expected string, found 7` of item `[3]` → (`[3].name`, `breaks …: expected string, found 7`).
    private static func placed(_ violation: String, in prefix: String, against: String) -> (location: String, message: String) {
        let parts = violation.split(separator: ": ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasPrefix("body") else { return (prefix, "breaks \(against): \(violation)") }
        let rest = parts[0].dropFirst("body".count)
        let location = prefix + (prefix.isEmpty && rest.hasPrefix(".") ? String(rest.dropFirst()) : String(rest))
        return (location, "breaks \(against): \(parts[1])")
    }
}
