import Foundation
import MockdCore
import MockdHTTP
import Testing
import TestSupport

/// The admin API answers only whom it is meant for: no DNS rebinding, no `--cors`, and a
/// journal that does not hand out credentials when mockd is reachable from the network.
@Suite("Admin exposure")
struct AdminExposureTests {
    static func get(_ server: TestServer, _ target: String, host: String, headers: [(String, String)] = []) async throws -> RawResponse {
        let port = server.port
        return try await blocking {
            let connection = try RawConnection(port: port)
            var head = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            try connection.send(head + "\r\n")
            return try connection.readResponse()
        }
    }

    @Test("a rebound name gets a JSON 403 naming --allowed-hosts", arguments: ["evil.example", "evil.example:8080", "attacker.test."])
    func reboundHost_Is403(host: String) async throws {
        try await withTestServer { server in
            let response = try await Self.get(server, "/__mockd/requests", host: host)
            #expect(response.status == 403, "\(response)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            let message = try #require(object?["error"] as? String, "\(response)")
            #expect(message.contains("--allowed-hosts") && message.contains("MOCKD_ALLOWED_HOSTS"), "\(message)")
            // Mocks are not the admin API: they answer any Host.
            let mock = try await Self.get(server, "/api/users", host: host)
            #expect(mock.status == 200)
        }
    }

    /// HTTP/1.0 allows a request without `Host`; the guard lets in names, and such a request names
    /// none, so the admin API refuses it. The mocks answer it (`FramingTests`).
    @Test func noHost_OnHTTP10_IsRefusedByTheAdminAPI() async throws {
        try await withTestServer { server in
            let (admin, mock) = try await server.withRawConnection { connection -> (RawResponse, RawResponse) in
                try connection.send("GET /__mockd/requests HTTP/1.0\r\n\r\n")
                let admin = try connection.readResponse()
                let mock = try RawConnection(port: connection.port)
                try mock.send("GET /api/users HTTP/1.0\r\n\r\n")
                return (admin, try mock.readResponse())
            }
            #expect(admin.status == 403, "\(admin)")
            #expect(admin.header("Content-Type") == "application/json; charset=utf-8")
            #expect(admin.text.contains("name their Host"), "\(admin)")
            #expect(mock.status == 200, "\(mock)")
        }
    }

    @Test(
        "names that cannot be rebound are served",
        arguments: [
            "127.0.0.1", "127.0.0.1:8080", "localhost:8080", "[::1]:8080", "10.0.0.7", "mockd", "mockd:8080", "app.localhost",
        ])
    func safeHost_IsServed(host: String) async throws {
        try await withTestServer { server in
            let response = try await Self.get(server, "/__mockd/health", host: host)
            #expect(response.status == 200, "\(response)")
        }
    }

    @Test func allowedHosts_AddsNames() async throws {
        try await withTestServer(configure: { $0.allowedHosts = ["mocks.internal.example", "other.example:9000"] }) { server in
            var statuses: [Int] = []
            for host in ["mocks.internal.example:8080", "MOCKS.internal.example", "other.example", "evil.example"] {
                statuses.append(try await Self.get(server, "/__mockd/health", host: host).status)
            }
            #expect(statuses == [200, 200, 200, 403])
        }
    }

    @Test func cors_NeverReachesTheAdminAPI() async throws {
        try await withTestServer(configure: { $0.cors = true }) { server in
            let origin = [("Origin", "http://evil.example")]
            let admin = try await Self.get(server, "/__mockd/requests", host: "127.0.0.1", headers: origin)
            #expect(admin.status == 200)
            #expect(admin.header("Access-Control-Allow-Origin") == nil, "\(admin)")
            // A preflight for the admin API is not allowed either.
            let preflight = try await server.raw(
                "OPTIONS", "/__mockd/scenario", headers: origin + [("Access-Control-Request-Method", "PUT")])
            #expect(preflight.header("Access-Control-Allow-Origin") == nil, "\(preflight)")
            #expect(preflight.header("Access-Control-Allow-Methods") == nil, "\(preflight)")
            // Mocks keep --cors.
            let mock = try await Self.get(server, "/api/users", host: "127.0.0.1", headers: origin)
            #expect(mock.header("Access-Control-Allow-Origin") == "*")
            let missing = try await Self.get(server, "/api/nothing", host: "127.0.0.1", headers: origin)
            #expect(missing.status == 404 && missing.header("Access-Control-Allow-Origin") == "*")
            // An admin answer that was parked (a long poll, answered at once here: the journal has
            // entries after 0) is still the admin API's when it is resumed.
            let polled = try await Self.get(server, "/__mockd/events?after=0&wait=5", host: "127.0.0.1", headers: origin)
            #expect(polled.status == 200)
            #expect(polled.header("Access-Control-Allow-Origin") == nil, "\(polled)")
        }
    }

    static let credentials: [(String, String)] = [
        ("Authorization", "Bearer s3cr3t-bearer"), ("Proxy-Authorization", "Basic dXNlcjpwYXNz"), ("Cookie", "session=abc123"),
        ("X-API-Key", "k-123"), ("X-Auth-Token", "t-456"), ("X-Client-Secret", "c-789"), ("X-Apikey", "a-1"), ("X-Trace", "visible"),
    ]

    static func journaledHeaders(_ server: TestServer) throws -> [String: String] {
        let entry = try #require(server.server.journal.entries().last)
        return Dictionary(entry.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func redact_HidesCredentialValuesKeepingNamesAndScheme() async throws {
        try await withTestServer(configure: { $0.journalCredentials = .redact }) { server in
            let response = try await server.raw("GET", "/api/users", headers: Self.credentials)
            #expect(response.status == 200)
            let headers = try Self.journaledHeaders(server)
            #expect(headers["Authorization"] == "Bearer [redacted]")
            #expect(headers["Proxy-Authorization"] == "Basic [redacted]")
            #expect(headers["Cookie"] == "[redacted]")
            #expect(headers["X-API-Key"] == "[redacted]")
            #expect(headers["X-Auth-Token"] == "[redacted]")
            #expect(headers["X-Client-Secret"] == "[redacted]")
            #expect(headers["X-Apikey"] == "[redacted]")
            #expect(headers["X-Trace"] == "visible")
        }
    }

    @Test func loopback_KeepsValuesByDefault() async throws {
        try await withTestServer { server in
            let response = try await server.raw("GET", "/api/users", headers: Self.credentials)
            #expect(response.status == 200)
            let headers = try Self.journaledHeaders(server)
            #expect(headers["Authorization"] == "Bearer s3cr3t-bearer")
            #expect(headers["Cookie"] == "session=abc123")
        }
    }

    @Test func exposedBind_RedactsByDefault_AndKeepCanBeChosen() {
        var configuration = ServerConfiguration()
        for host in ["127.0.0.1", "localhost", "::1", "127.0.0.53"] {
            configuration.host = host
            #expect(!configuration.redactsJournalCredentials, "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.4", "mockd.example"] {
            configuration.host = host
            #expect(configuration.redactsJournalCredentials, "\(host)")
        }
        configuration.journalCredentials = .keep
        #expect(!configuration.redactsJournalCredentials)
        configuration.host = "127.0.0.1"
        configuration.journalCredentials = .redact
        #expect(configuration.redactsJournalCredentials)
    }
}
