import Foundation
import MockdCore
import Testing

/// The dashboard's sources live in Dashboard/; the binary serves the copies that
/// scripts/embed-dashboard.sh generated into DashboardAssets.swift. They must be the same text.
@Suite struct DashboardAssetsTests {
    static let dashboardFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Dashboard")

    static let embedded = [
        "index.html": DashboardAssets.indexHTML,
        "dashboard.css": DashboardAssets.css,
        "dashboard.js": DashboardAssets.javascript,
    ]

    /// Named by file, not by content: a test's arguments are printed, and these are 30 KB.
    @Test(arguments: ["index.html", "dashboard.css", "dashboard.js"])
    func embeddedCopy_MatchesTheSource(file: String) throws {
        let source = try String(contentsOf: Self.dashboardFolder.appendingPathComponent(file), encoding: .utf8)
        let embedded = try #require(Self.embedded[file])
        // Not #expect(embedded == source): its failure would print both texts in full.
        if embedded != source {
            let line = zip(
                embedded.split(separator: "\n", omittingEmptySubsequences: false),
                source.split(separator: "\n", omittingEmptySubsequences: false)
            )
            .enumerated().first { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
            Issue.record(
                "Sources/MockdCore/Admin/DashboardAssets.swift is stale for Dashboard/\(file) (first difference at line \(line.map(String.init) ?? "the end")): run scripts/embed-dashboard.sh"
            )
        }
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
