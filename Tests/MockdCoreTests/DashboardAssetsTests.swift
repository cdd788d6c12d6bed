import Foundation
import MockdCore
import Testing

/// The dashboard's sources live in Dashboard/; the binary serves the copies that
/// scripts/embed-dashboard.sh generated into DashboardAssets.swift. They must be the same text.
@Suite struct DashboardAssetsTests {
    static let dashboardFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Dashboard")

    @Test(arguments: [
        ("index.html", DashboardAssets.indexHTML),
        ("dashboard.css", DashboardAssets.css),
        ("dashboard.js", DashboardAssets.javascript),
    ])
    func embeddedCopy_MatchesTheSource(file: String, embedded: String) throws {
        let source = try String(contentsOf: Self.dashboardFolder.appendingPathComponent(file), encoding: .utf8)
        #expect(embedded == source, "Sources/MockdCore/Admin/DashboardAssets.swift is stale for Dashboard/\(file): run scripts/embed-dashboard.sh")
    }

    /// Relative URLs only: the page lives at /__mockd/ and must load nothing from anywhere else.
    @Test func page_LoadsItsAssetsRelatively() {
        #expect(DashboardAssets.indexHTML.contains(#"href="dashboard.css""#))
        #expect(DashboardAssets.indexHTML.contains(#"src="dashboard.js""#))
        for text in [DashboardAssets.indexHTML, DashboardAssets.css, DashboardAssets.javascript] {
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"))
        }
    }
}
