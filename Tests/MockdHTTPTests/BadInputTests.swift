import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Testing
import TestSupport

/// Bad input gets a clear answer, and the server keeps serving everyone else.
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

    /// A client that asks first (`Expect: 100-continue`) gets the 413 instead of `100 Continue`.
    @Test func bodyOverLimit_WithExpectContinue_Is413WithoutContinue() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = Self.limit }) { server in
            let response = try await server.withRawConnection { connection in
                try connection.send(
                    "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\nExpect: 100-continue\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 413, "\(response)")
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
            let response = try await server.request(
                "POST", "/api/v1/sleep", headers: ["Content-Type": "application/json"],
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
            let result = try await runCurl([
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Big: \(big)", server.url("/api/users").absoluteString,
            ])
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
            let long =
                server.url("/api/users").absoluteString + "?q="
                + String(repeating: "q", count: server.server.configuration.maxHeaderBytes + 1024)
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

    // MARK: - Connections

    /// Refused only when every open connection is busy with a request (here: a body still arriving);
    /// slow and idle ones are evicted instead (SlowClientTests).
    @Test func tooManyConnections_RefusesTheExtraOneAndServesTheRest() async throws {
        try await withTestServer(configure: {
            $0.maxConnections = 2; $0.threads = 1
        }) { server in
            let result = try await server.withRawConnection { first -> (extra: Bool, stillServed: Int, afterwards: Int) in
                // `100 Continue` proves the head was read: the connection is inside a request.
                let busyHead = "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n"
                try first.send(RawConnection.request("GET", "/api/users"))
                _ = try first.readResponse()
                try first.send(busyHead)
                _ = try first.readResponse()
                let second = try RawConnection(port: first.port)
                try second.send(RawConnection.request("GET", "/api/users"))
                _ = try second.readResponse()
                try second.send(busyHead)
                _ = try second.readResponse()
                // Two open, both inside a request: a third connection is closed without an answer.
                let extra = try RawConnection(port: first.port)
                try? extra.send(RawConnection.request("GET", "/api/users"))
                let refused = (try? extra.readResponse()) == nil
                // The two it accepted are still served.
                try first.send("abcdefghij")
                _ = try first.readResponse()
                try first.send(RawConnection.request("GET", "/api/user/123"))
                let stillServed = try first.readResponse().status
                // Once one closes, a new client is served again (poll: the close is seen asynchronously).
                second.close()
                var afterwards = 0
                let deadline = Deadline(eventDeadline)
                while afterwards != 200 && !deadline.hasPassed {
                    afterwards = (try? RawConnection.exchange(port: first.port, "GET", "/api/users").status) ?? 0
                    if afterwards != 200 { usleep(10_000) }
                }
                return (refused, stillServed, afterwards)
            }
            #expect(result.extra, "the connection over the limit was served")
            #expect(result.stillServed == 200)
            #expect(result.afterwards == 200)
        }
    }

    @Test func idleConnection_IsClosedAfterTheIdleTimeout() async throws {
        try await withTestServer(configure: { $0.idleTimeoutSeconds = 1 }) { server in
            let (closed, took) = try await server.withRawConnection { connection -> (Bool, Duration) in
                try connection.send(RawConnection.request("GET", "/api/users"))
                _ = try connection.readResponse()
                let started = ContinuousClock.now
                return (try connection.waitForClose(), ContinuousClock.now - started)
            }
            #expect(closed)
            // Far below the 30 s default: the 1 s setting closed it (allowing for a loaded machine).
            #expect(took >= .milliseconds(800) && took < .seconds(4) * loadAllowance, "closed after \(took)")
            try await server.expectStillServing()
        }
    }

    @Test func slowClient_IsClosedAfterTheIdleTimeout() async throws {
        try await withTestServer(configure: { $0.idleTimeoutSeconds = 1 }) { server in
            let closed = try await server.withRawConnection { connection in
                // Half a request line, then nothing.
                try connection.send("GET /api/us")
                return try connection.waitForClose()
            }
            #expect(closed)
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

    /// RFC 9112 section 3.2.2: a server MUST accept the absolute form (`GET http://host/path`), which
    /// clients send when mockd is set as their HTTP proxy: it is answered by its path, as the
    /// origin form is (`HTTPServer.originForm`).
    @Test func absoluteFormTarget_IsServedByItsPath() async throws {
        try await withTestServer { server in
            let response = try await server.raw("GET", "http://127.0.0.1:\(server.port)/api/users?page=2")
            #expect(
                response.status == 200 && response.body == Fixture.body("mock_api_users_get.json"),
                "HTTP \(response.status), looked for \(String(describing: (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["file"]))"
            )
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
            // Off the cooperative pool: shutdown blocks its thread while it drains. A drain
            // deadline far beyond the bound: waiting on a refused request would show.
            let took = try await blocking { () -> Duration in
                let started = ContinuousClock.now
                server.server.shutdown(timeout: .seconds(60))
                return ContinuousClock.now - started
            }
            #expect(took < .seconds(1) * loadAllowance, "shutdown took \(took)")
        }
    }
}
