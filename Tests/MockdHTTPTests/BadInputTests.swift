import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Testing

/// SPEC section 9: bad input gets a clear answer, and the server keeps serving everyone else.
@Suite("Bad input")
struct BadInputTests {
    // MARK: - 400: invalid percent-encoding

    @Test("invalid percent-encoding → 400", arguments: ["/api/%zz", "/api/%z1", "/api/%4", "/api/%", "/api/us%00ers", "/caf%E9"])
    func badPercentEncoding_Is400(target: String) async throws {
        try await withTestServer { server in
            let response = try await server.raw("GET", target)
            #expect(response.status == 400, "\(response)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect((object?["error"] as? String)?.isEmpty == false, "\(response)")
            try await server.expectStillServing()
        }
    }

    @Test func badPercentEncoding_ClosesOnlyThatConnection() async throws {
        try await withTestServer { server in
            // A keep-alive client holds a connection while another sends garbage.
            let bystander = try await server.withRawConnection { connection -> [Int] in
                try connection.send(RawConnection.request("GET", "/api/users"))
                let first = try connection.readResponse().status
                let bad = try RawConnection.exchange(port: connection.port, "GET", "/api/%zz")
                try connection.send(RawConnection.request("GET", "/api/user/123"))
                let second = try connection.readResponse().status
                return [first, bad.status, second]
            }
            #expect(bystander == [200, 400, 200])
        }
    }

    // MARK: - 413: body over --max-body-bytes

    static let limit = 64

    @Test func bodyOverLimit_WithContentLength_Is413() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = Self.limit }) { server in
            // Headers only: the server must refuse without waiting for the body.
            let response = try await server.withRawConnection { connection in
                try connection.send("POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(Self.limit + 1)\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 413, "\(response)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.text.contains("\(Self.limit + 1)") && response.text.contains("\(Self.limit)"), "\(response)")
            try await server.expectStillServing()
        }
    }

    @Test func bodyAtLimit_IsServed() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = Self.limit }) { server in
            let response = try await server.raw("POST", "/api/v1/sleep", body: [UInt8](repeating: UInt8(ascii: "x"), count: Self.limit))
            #expect(response.status == 200, "\(response)")
            #expect(response.body == Fixture.body("mock_api_v1_sleep_post.json"))
        }
    }

    @Test func bodyOverLimit_FromURLSession_Is413() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = Self.limit }) { server in
            let response = try await server.request("POST", "/api/v1/sleep", headers: ["Content-Type": "application/json"],
                                                    body: Data(repeating: UInt8(ascii: "x"), count: 4096))
            #expect(response.status == 413)
            try await server.expectStillServing()
        }
    }

    @Test func bodyOverLimit_Chunked_Is413() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = Self.limit }) { server in
            let chunk = String(repeating: "y", count: 30)
            let response = try await server.withRawConnection { connection in
                try connection.send("POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
                for _ in 0..<3 { try connection.send("1e\r\n\(chunk)\r\n") }  // 90 bytes > 64
                try connection.send("0\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 413, "\(response)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            try await server.expectStillServing()
        }
    }

    @Test func bodyUnderLimit_Chunked_IsServed() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = Self.limit }) { server in
            let response = try await server.withRawConnection { connection in
                try connection.send("POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
                try connection.send("14\r\n\(String(repeating: "z", count: 20))\r\n14\r\n\(String(repeating: "z", count: 20))\r\n0\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 200, "\(response)")
            #expect(response.body == Fixture.body("mock_api_v1_sleep_post.json"))
        }
    }

    // MARK: - 431 / 414: oversized headers and URLs

    @Test func oversizedHeader_Is431() async throws {
        try await withTestServer { server in
            let limit = server.server.configuration.maxHeaderBytes
            let big = String(repeating: "h", count: limit + 1024)
            let response = try await server.raw("GET", "/api/users", headers: [("X-Big", big)])
            #expect(response.status == 431, "\(response.status) \(response.headers)")
            try await server.expectStillServing()
        }
    }

    @Test func oversizedHeader_FromCurl_Is431() async throws {
        try await withTestServer { server in
            let big = String(repeating: "c", count: server.server.configuration.maxHeaderBytes + 1024)
            let result = try await runCurl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Big: \(big)", server.url("/api/users").absoluteString])
            #expect(result.stdout == "431", "curl: \(result)")
            try await server.expectStillServing()
        }
    }

    @Test func oversizedURL_Is414() async throws {
        try await withTestServer { server in
            let limit = server.server.configuration.maxHeaderBytes
            let response = try await server.raw("GET", "/api/" + String(repeating: "u", count: limit + 1024))
            #expect(response.status == 414, "\(response.status) \(response.headers)")
            try await server.expectStillServing()
        }
    }

    @Test func oversizedURL_FromCurl_Is414() async throws {
        try await withTestServer { server in
            let long = server.url("/api/users").absoluteString + "?q=" + String(repeating: "q", count: server.server.configuration.maxHeaderBytes + 1024)
            let result = try await runCurl(["-s", "-o", "/dev/null", "-w", "%{http_code}", long])
            #expect(result.stdout == "414", "curl: \(result)")
            try await server.expectStillServing()
        }
    }

    @Test func headerLimit_IsConfigurable() async throws {
        try await withTestServer(configure: { $0.maxHeaderBytes = 4096 }) { server in
            let response = try await server.raw("GET", "/api/users", headers: [("X-Big", String(repeating: "h", count: 6000))])
            #expect(response.status == 431, "\(response.status) \(response.headers)")
            try await server.expectStillServing()
        }
    }

    // MARK: - Other odd input

    @Test func unknownMethod_GetsAClearAnswer() async throws {
        try await withTestServer { server in
            let response = try await server.raw("BREW", "/api/users")
            #expect((400..<600).contains(response.status), "\(response)")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            try await server.expectStillServing()
        }
    }

    @Test func garbageRequestLine_DoesNotStopTheServer() async throws {
        try await withTestServer { server in
            _ = try? await server.withRawConnection { connection in
                try connection.send("\u{1}\u{2}\u{3} not http at all\r\n\r\n")
                return try connection.waitForClose()
            }
            try await server.expectStillServing()
        }
    }

    /// Refused requests must not count as in flight: graceful shutdown right after them is prompt.
    @Test func shutdownAfterRefusals_IsPrompt() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = Self.limit }) { server in
            let limit = server.server.configuration.maxHeaderBytes
            _ = try await server.raw("GET", "/api/%zz")
            _ = try await server.raw("GET", "/api/users", headers: [("X-Big", String(repeating: "h", count: limit + 1024))])
            _ = try await server.raw("GET", "/api/" + String(repeating: "u", count: limit + 1024))
            _ = try await server.raw("POST", "/api/v1/sleep", headers: [("Content-Length", "\(Self.limit + 1)")])
            try await server.expectStillServing()
            let started = ContinuousClock.now
            server.server.shutdown(timeout: .seconds(5))
            let took = ContinuousClock.now - started
            #expect(took < .seconds(1), "shutdown took \(took)")
        }
    }
}
