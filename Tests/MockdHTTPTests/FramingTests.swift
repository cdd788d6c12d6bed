import Foundation
import MockdCore
import MockdHTTP
import Testing

/// One framing, one answer (RFC 9112 §3, §6): requests whose length or target a proxy in front of
/// mockd could read differently are refused with exactly one JSON answer, and the connection closed.
@Suite("Framing")
struct FramingTests {
    /// Sends `head` (and whatever follows it), reads one response, then whether the server closed.
    /// `closed`: the server closed the connection after the response and sent nothing more.
    static func exchange(_ server: TestServer, _ bytes: String) async throws -> (response: RawResponse, closed: Bool) {
        try await server.withRawConnection { connection in
            try connection.send(bytes)
            let response = try connection.readResponse()
            return (response, try connection.readToEnd() == [])
        }
    }

    static func expectJSONRefusal(_ result: (response: RawResponse, closed: Bool), _ status: Int,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.response.status == status, "\(result.response)", sourceLocation: sourceLocation)
        #expect(result.response.header("Content-Type") == "application/json; charset=utf-8", sourceLocation: sourceLocation)
        #expect(result.response.header("Connection")?.lowercased() == "close", "\(result.response)", sourceLocation: sourceLocation)
        // Exactly one answer: after it, the server closes without sending anything else.
        #expect(result.closed, "the connection stayed open", sourceLocation: sourceLocation)
    }

    @Test func conflictingContentLengths_Are400AndClose() async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(server,
                "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabcde")
            Self.expectJSONRefusal(result, 400)
            #expect(result.response.text.contains("Content-Length"), "\(result.response)")
            try await server.expectStillServing()
        }
    }

    @Test func repeatedEqualContentLengths_AreOneLength() async throws {
        try await withTestServer { server in
            let response = try await server.withRawConnection { connection in
                try connection.send("POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc")
                return try connection.readResponse()
            }
            #expect(response.status == 200, "\(response)")
        }
    }

    /// libmicrohttpd 0.9.75 parses Content-Length itself before mockd sees the request, answers
    /// 400 in HTML, and writes that answer's head twice (the second inside the first one's
    /// body). mockd cannot intercept it; the known issue turns into a failure once a
    /// libmicrohttpd without the bug is installed, so this test is then made exact.
    @Test func nonNumericContentLength_Is400() async throws {
        try await withTestServer { server in
            await withKnownIssue("libmicrohttpd 0.9.75 sends its own 400 for a bad Content-Length, with a doubled head") {
                let result = try await Self.exchange(server, "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n")
                #expect(result.response.status == 400, "\(result.response)")
                #expect(result.closed, "the connection stayed open after the 400, or more followed it")
            }
            try await server.expectStillServing()
        }
    }

    /// RFC 9112 §6.3: Transfer-Encoding overrides Content-Length, and the connection must close after.
    @Test func contentLengthWithChunked_IsReadAsChunkedThenClosed() async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(server,
                "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            #expect(result.response.status == 200, "\(result.response)")
            #expect(result.response.body == Fixture.body("mock_api_v1_sleep_post.json"))
            #expect(result.response.header("Connection")?.lowercased() == "close", "\(result.response)")
            #expect(result.closed, "the connection stayed open for a smuggled request")
            let entry = try #require(server.server.journal.entries().last)
            #expect(entry.body == Array("hello".utf8))
            #expect(!entry.headers.contains { $0.name == "Connection" }, "the journal shows the request as sent")
        }
    }

    @Test func unknownTransferCoding_Is501AtOnce() async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(server, "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: foo\r\n\r\n")
            Self.expectJSONRefusal(result, 501)
            #expect(result.response.text.contains("foo"), "\(result.response)")
            try await server.expectStillServing()
        }
    }

    @Test func chunkedNotLast_Is501() async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(server, "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n")
            Self.expectJSONRefusal(result, 501)
        }
    }

    @Test func http11WithoutHost_Is400() async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(server, "GET /api/users HTTP/1.1\r\n\r\n")
            Self.expectJSONRefusal(result, 400)
            #expect(result.response.text.contains("Host"), "\(result.response)")
            try await server.expectStillServing()
        }
    }

    @Test func http11WithTwoHosts_Is400() async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(server, "GET /api/users HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n")
            Self.expectJSONRefusal(result, 400)
        }
    }

    /// HTTP/1.0 had no Host header: such a request is still served.
    @Test func http10WithoutHost_IsServed() async throws {
        try await withTestServer { server in
            let response = try await server.withRawConnection { connection in
                try connection.send("GET /api/users HTTP/1.0\r\n\r\n")
                return try connection.readResponse()
            }
            #expect(response.status == 200, "\(response)")
        }
    }

    @Test("methods are case-sensitive", arguments: ["get", "Get", "pOST"])
    func lowerCaseMethod_IsNotTheMethod(method: String) async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(server, "\(method) /api/users HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            Self.expectJSONRefusal(result, 501)
            #expect(result.response.text.contains(method.uppercased()), "\(result.response)")
            try await server.expectStillServing()
        }
    }
}
