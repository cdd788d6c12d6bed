import Foundation

/// The mock folder most HTTP tests serve: every row of the naming table (README, "Files by convention") plus odd names.
/// Expected bodies are always read back from here, never written twice.
enum Fixture {
    static let standard: [String: String] = [
        "users/mock_api_users_get.json": "[{\"id\": 1, \"name\": \"Ada\"}, {\"id\": 2, \"name\": \"Grace\"}]\n",
        "users/mock_api_user_123_get.json": "{\"id\": 123, \"name\": \"Alan\"}\n",
        "mock_api_v1_sleep_post.json": "{\"slept\": true}\n",
        "scenarios/empty/mock_api_users_get.json": "[]\n",
        "mock__get.json": "{\"root\": true}\n",
        "odd/mock_café_get.json": "{\"cafe\": true}\n",
        "odd/mock_a_b_get.json": "{\"a\": \"b\"}\n",
        "odd/mock_my file_get.json": "{\"space\": true}\n",
        "odd/mock_a+b_get.json": "{\"plus\": true}\n",
        "odd/mock_api_v1.2_report.final_get.json": "{\"dots\": true}\n",
        "bodies/user.json": "{\"not\": \"served by the convention\"}\n",
    ]

    /// Where the file called `name` (outside `scenarios/`) is in `files`, relative to the root, as
    /// `X-Mockd-Source` names it; `name` itself when it is not there.
    static func path(of name: String, in files: [String: String] = standard) -> String {
        files.keys.first { $0.split(separator: "/").last.map(String.init) == name && !$0.hasPrefix("scenarios/") } ?? name
    }

    /// The bytes of the file called `name` (anywhere outside `scenarios/`) in `files`.
    static func body(_ name: String, in files: [String: String] = standard) -> [UInt8] {
        let matches = files.filter { $0.key.split(separator: "/").last.map(String.init) == name && !$0.key.hasPrefix("scenarios/") }
        precondition(matches.count == 1, "fixture has \(matches.count) files named \(name)")
        return Array(matches.first!.value.utf8)
    }

    /// The bytes of `relativePath` in `files`.
    static func bytes(_ relativePath: String, in files: [String: String] = standard) -> [UInt8] {
        Array(files[relativePath]!.utf8)
    }

    /// How many files the convention serves from `files` (mock names, overlays included).
    static func mockFileCount(_ files: [String: String] = standard) -> Int {
        files.keys.filter { ($0 as NSString).lastPathComponent.hasPrefix("mock_") && $0.hasSuffix(".json") }.count
    }

    /// The repository root (this file is Tests/MockdHTTPTests/Support/Fixture.swift).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The MockData folder bundled with mockd.
    static var bundledMockData: String { repositoryRoot.appendingPathComponent("MockData").path }
}
