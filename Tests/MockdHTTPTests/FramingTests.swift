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

    static func expectJSONRefusal(
        _ result: (response: RawResponse, closed: Bool), _ status: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.response.status == status, "\(result.response)", sourceLocation: sourceLocation)
        #expect(result.response.header("Content-Type") == "application/json; charset=utf-8", sourceLocation: sourceLocation)
        #expect(result.response.header("Connection")?.lowercased() == "close", "\(result.response)", sourceLocation: sourceLocation)
        // Exactly one answer: after it, the server closes without sending anything else.
        #expect(result.closed, "the connection stayed open", sourceLocation: sourceLocation)
    }

    /// Whether libmicrohttpd answers the framing cases below itself, before mockd sees the
    /// request: 1.0 does (seen on 1.0.1 at discipline level 1, docs/INSTALL.md), in HTML with the
    /// same status mockd gives; 0.9.75 passes them to mockd, which answers in JSON.
    static let libraryRefusesFraming = MicroHTTPDVersion.running.isAtLeast([1, 0, 0])

    /// One refusal and a close, from whichever answers on this version: mockd's JSON naming
    /// `mention` on 0.9.75, libmicrohttpd's own HTML page on 1.0.
    static func expectRefusal(
        _ result: (response: RawResponse, closed: Bool), _ status: Int, mentioning mention: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard libraryRefusesFraming else {
            expectJSONRefusal(result, status, sourceLocation: sourceLocation)
            #expect(result.response.text.contains(mention), "\(result.response)", sourceLocation: sourceLocation)
            return
        }
        #expect(result.response.status == status, "\(result.response)", sourceLocation: sourceLocation)
        #expect(result.response.text.hasPrefix("<html>"), "not libmicrohttpd's page: \(result.response)", sourceLocation: sourceLocation)
        #expect(result.response.header("Connection")?.lowercased() == "close", "\(result.response)", sourceLocation: sourceLocation)
        #expect(result.closed, "the connection stayed open", sourceLocation: sourceLocation)
    }

    @Test func conflictingContentLengths_Are400AndClose() async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(
                server,
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

    /// libmicrohttpd parses Content-Length itself before mockd sees the request. 1.0 refuses a bad
    /// one with one 400 and a close. 0.9.75 answers 400 in HTML and writes that answer's head
    /// twice (the second inside the first one's body); mockd cannot intercept it, so there it
    /// stays a known issue, which turns into a failure if a 0.9 without the bug is installed.
    @Test func nonNumericContentLength_Is400() async throws {
        try await withTestServer { server in
            let request = "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n"
            if Self.libraryRefusesFraming {
                Self.expectRefusal(try await Self.exchange(server, request), 400, mentioning: "Content-Length")
            } else {
                await withKnownIssue("libmicrohttpd 0.9.75 sends its own 400 for a bad Content-Length, with a doubled head") {
                    let result = try await Self.exchange(server, request)
                    #expect(result.response.status == 400, "\(result.response)")
                    #expect(result.closed, "the connection stayed open after the 400, or more followed it")
                }
            }
            try await server.expectStillServing()
        }
    }

    /// RFC 9112 §6.3 rule 3 lets a server refuse this or read it as chunked, and close after:
    /// refused, as libmicrohttpd 1.0 refuses it itself.
    @Test func contentLengthWithChunked_Is400AndClose() async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(
                server,
                "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
            )
            Self.expectRefusal(result, 400, mentioning: "Content-Length and Transfer-Encoding")
            try await server.expectStillServing()
        }
    }

    /// Chunked not last: the body's end cannot be found (RFC 9112 §6.3 rule 4).
    @Test("a transfer coding that does not end in chunked", arguments: ["foo", "chunked, gzip"])
    func codingNotEndingInChunked_Is400AtOnce(coding: String) async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(
                server, "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: \(coding)\r\n\r\n")
            Self.expectRefusal(result, 400, mentioning: coding)
            try await server.expectStillServing()
        }
    }

    /// Chunked last, after a coding mockd cannot undo: 501 from mockd (RFC 9112 §6.1), while
    /// libmicrohttpd 1.0, which takes only `chunked` alone, refuses it with its 400.
    @Test func codingBeforeChunked_IsNotImplemented() async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(
                server, "POST /api/v1/sleep HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
            Self.expectRefusal(result, Self.libraryRefusesFraming ? 400 : 501, mentioning: "gzip")
            try await server.expectStillServing()
        }
    }

    @Test func http11WithoutHost_Is400() async throws {
        try await withTestServer { server in
            let result = try await Self.exchange(server, "GET /api/users HTTP/1.1\r\n\r\n")
            Self.expectRefusal(result, 400, mentioning: "Host")
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
