import MockdCore

/// The resolved table as text: one line per thing that answers, routes first (in table
/// order), then scenario overlays, then files.
struct RouteListing {
    let snapshot: Snapshot

    var text: String {
        let header = ["METHOD", "PATH OR FILE", "SCENARIO", "CONDITIONS", "SOURCE"]
        let rows = RouteDescription.rows(snapshot).map { row in
            [row.method, row.path, row.scenario, row.conditions.isEmpty ? "-" : row.conditions.joined(separator: "; "), row.source]
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }.joined()
        }.joined(separator: "\n")
    }
}
