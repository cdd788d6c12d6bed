import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdKit
import Testing

/// The package's folder: this file is Tests/MockdKitTests/Fixture.swift.
let packageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The mockd under test: `$MOCKD_BINARY`; else the one this build made, beside the test
/// bundle (whatever the scratch path: `make test-mhd1` builds into .build-mhd1); else
/// `<package>/.build/debug/mockd`.
let mockdBinary: URL = {
    if let given = ProcessInfo.processInfo.environment["MOCKD_BINARY"], !given.isEmpty {
        return URL(fileURLWithPath: given)
    }
    var candidates = Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
        .map { $0.bundleURL.deletingLastPathComponent().appendingPathComponent("mockd") }
    if let runner = CommandLine.arguments.first {
        candidates.append(URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("mockd"))
    }
    let fallback = packageFolder.appendingPathComponent(".build/debug/mockd")
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? fallback
}()

/// A real mockd over a copy of the repository's MockData and routes, for one test: started
/// before `body`, stopped and its folder removed after, whatever `body` throws.
func withMockd(
    arguments: [String] = [], adminToken: String? = nil,
    _ body: (MockdClient, MockdProcess) async throws -> Void
) async throws {
    try #require(
        FileManager.default.isExecutableFile(atPath: mockdBinary.path),
        "no mockd at \(mockdBinary.path): build it (swift build --product mockd) or set MOCKD_BINARY")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("MockdKitTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["MockData", "routes"] {
        try FileManager.default.copyItem(at: packageFolder.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    let process = MockdProcess(
        executable: mockdBinary, root: folder.appendingPathComponent("MockData"),
        routes: folder.appendingPathComponent("routes"), arguments: arguments, adminToken: adminToken)
    let client = try await process.start()
    do {
        try await body(client, process)
    } catch {
        await process.stop()
        throw error
    }
    await process.stop()
}

/// Sends a request as the app would: to `baseURL` + `path`, not through the admin API.
@discardableResult
func send(
    _ method: String = "GET", _ path: String, to baseURL: URL, json: String? = nil,
    headers: [String: String] = [:]
) async throws -> (Data, HTTPURLResponse) {
    var request = URLRequest(url: baseURL.appendingPathComponent(path))
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let json {
        request.httpBody = Data(json.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    return (data, try #require(response as? HTTPURLResponse))
}

/// The status of the `MockdError.http` that `call` throws, with the error itself.
func httpError(_ call: () async throws -> Void) async -> MockdError? {
    do {
        try await call()
        return nil
    } catch let error as MockdError {
        return error
    } catch {
        Issue.record("expected a MockdError, got \(error)")
        return nil
    }
}
