import Foundation
import MockdCore

/// The resolved table as text: one line per thing that answers, in resolution order.
struct RouteListing {
    let snapshot: Snapshot

    var rows: [[String]] {
        var rows: [[String]] = []
        for scenario in snapshot.overlays.keys.sorted() {
            for file in snapshot.overlays[scenario]!.values.sorted(by: { $0.name < $1.name }) {
                rows.append(row(file, scenario: scenario))
            }
        }
        for file in snapshot.files.values.sorted(by: { $0.name < $1.name }) {
            rows.append(row(file, scenario: "*"))
        }
        return rows
    }

    private func row(_ file: MockFile, scenario: String) -> [String] {
        guard case .mock(let method, _) = MockFileName.parse(file.name) else { return [] }
        return [method, file.name, scenario, "\(snapshot.rootDisplayPath)/\(file.relativePath)"]
    }

    var text: String {
        let all = [["METHOD", "MATCHES", "SCENARIO", "SOURCE"]] + rows
        let widths = (0..<4).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index] + 2, withPad: " ", startingAt: 0)
            }.joined()
        }.joined(separator: "\n")
    }
}
