import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Logging
import MockdCore
import MockdDisk
import MockdHTTP
import Testing
import TestSupport

/// A response as a test looks at it: status, headers by lower-cased name, body bytes.
struct HTTPResult: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// What URLSession answered: header names lower-cased.
    init(_ data: Data, _ response: URLResponse) throws {
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        self.init(status: http.statusCode, headers: fields, body: Array(data))
    }

    func header(_ name: String) -> String? { headers[name.lowercased()] }
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as a JSON object, for 404 reports and admin answers.
    func jsonObject() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(body))
        return try #require(object as? [String: Any], "not a JSON object: \(text)")
    }
}

/// One running `HTTPServer` on 127.0.0.1 with a port of its own, serving one fixture folder.
struct TestServer: Sendable {
    let server: HTTPServer
    /// The mock root it serves.
    let root: String
    let session: URLSession

    var port: Int { server.port }
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// `target` is sent as written (path and query, already percent-encoded).
    func url(_ target: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(target)")! }

    /// One request through URLSession, the way an app's networking code sends it.
    func request(_ method: String = "GET", _ target: String, headers: [String: String] = [:], body: Data? = nil) async throws -> HTTPResult
    {
        var request = URLRequest(url: url(target))
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return try HTTPResult(data, response)
    }

    /// Sends exact bytes on a fresh connection (off the cooperative pool) and reads one response.
    func raw(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) async throws -> RawResponse {
        let port = port
        return try await blocking { try RawConnection.exchange(port: port, method, target, headers: headers, body: body) }
    }

    /// Runs a whole raw conversation off the cooperative pool.
    func withRawConnection<T: Sendable>(_ work: @escaping @Sendable (RawConnection) throws -> T) async throws -> T {
        let port = port
        return try await blocking { try work(RawConnection(port: port)) }
    }

    /// Proof that the server still serves: a plain GET of a fixture file gets it.
    func expectStillServing(
        _ name: String = "mock_api_users_get.json", target: String = "/api/users",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await raw("GET", target)
        #expect(response.status == 200, "server stopped serving: \(response)", sourceLocation: sourceLocation)
        #expect(response.header("X-Mockd-Source") == "file \(Fixture.path(of: name))", sourceLocation: sourceLocation)
    }
}

let silentLogger = Logger(label: "mockd-test", factory: { _ in SwiftLogNoOpLogHandler() })

/// Serves `files` (or the folder `root`) with `withServer`, runs `body`, and removes the folder.
func withTestServer<T>(
    files: [String: String] = Fixture.standard,
    root: String? = nil,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    runtime: RuntimeState = RuntimeState(),
    logger: Logger = silentLogger,
    _ body: (TestServer) async throws -> T
) async throws -> T {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try folder.write(files)
    let rootPath = root ?? folder.path
    let loaded = MockDataLoader(files: DiskFiles(), root: rootPath).load()
    let snapshot = try #require(loaded.snapshot, "fixture did not load: \(loaded.diagnostics)")
    let session = URLSession(configuration: .ephemeral)
    defer { session.invalidateAndCancel() }
    return try await withServer(snapshot: snapshot, configure: configure, runtime: runtime, logger: logger) { server in
        #expect(server.port > 0)
        return try await body(TestServer(server: server, root: rootPath, session: session))
    }
}
