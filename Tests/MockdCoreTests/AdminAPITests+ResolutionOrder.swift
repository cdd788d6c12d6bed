import Foundation
import MockdCore
import Testing

extension AdminAPITests {
    /// Which URL each thing answers, in the order a request tries them, per scenario.
    @Test func routes_ListTheResolutionOrderPerScenario() throws {
        let harness = try Harness()
        let response = harness.call("GET", "/__mockd/routes")
        let text = String(decoding: response.body, as: UTF8.self)
        // Pretty-printed, like the 404 report.
        #expect(text.hasPrefix("{\n  \""), "\(text.prefix(40))")
        let body = try Self.object(response)
        let order = try #require(body["resolutionOrder"] as? [[String: Any]])
        // `default` has no section when nothing is only for it.
        #expect(order.map { $0["scenario"] as? String ?? "*" } == ["empty", "error", "*"])
        func answers(_ scenario: String) -> [String] {
            let section = order.first { ($0["scenario"] as? String ?? "*") == scenario }
            return (section?["answers"] as? [[String: String]] ?? []).map {
                "\($0["method"] ?? "") \($0["path"] ?? "") ← \($0["answeredBy"] ?? "")"
            }
        }
        #expect(answers("empty") == ["GET /api/users ← file scenarios/empty/mock_api_users_get.json"])
        #expect(answers("error").first?.hasPrefix("GET /api/users ← route \(harness.routesFolder)/a.json#0") == true, "\(answers("error"))")
        #expect(answers("*").contains("GET /api/users ← file mock_api_users_get.json"), "\(answers("*"))")
        let files = try #require(body["files"] as? [[String: Any]])
        #expect(files.allSatisfy { $0["url"] as? String == "/api/users" })
    }

    @Test func routes_TheTextListing() throws {
        let harness = try Harness()
        let text = ResolutionOrder.text(harness.snapshot)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(!lines.contains { $0.hasPrefix("scenario default") })
        #expect(lines.contains("scenario empty: first"))
        #expect(
            lines.contains { $0.hasPrefix("  GET /api/users") && $0.hasSuffix("← file scenarios/empty/mock_api_users_get.json") }, "\(text)"
        )
        #expect(lines.contains("every scenario, after its own:"))
        // Shared entries come after every scenario's own.
        let shared = try #require(lines.firstIndex(of: "every scenario, after its own:"))
        #expect(lines[shared...].contains { $0.hasSuffix("← file mock_api_users_get.json") }, "\(text)")
    }
}
