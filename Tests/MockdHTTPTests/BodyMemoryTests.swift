import Foundation
import MockdCore
import MockdHTTP
import Testing
import TestSupport

/// Request bodies held in memory are bounded: past `--max-body-memory` a clear 503, and a body
/// no route reads is held only as far as the journal keeps it.
@Suite("Body memory")
struct BodyMemoryTests {
    static let echoRoute = routeTable(#"{"method": "POST", "path": "/echo", "match": {"text": "x"}, "response": {"text": "matched"}}"#)

    @Test func pastTheBudget_Is503WithRetryAfter() async throws {
        // A route reads bodies: they are held whole, and 4 KiB do not fit in 1 KiB.
        try await withRouteServer(tables: ["a.json": Self.echoRoute], configure: { $0.maxBodyMemoryBytes = 1024 }) { server in
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
            let response = try await server.test.raw("POST", "/echo", body: body)
            #expect(response.status == 503, "\(response)")
            #expect(response.header("Retry-After") == "1")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            #expect(response.text.contains("--max-body-memory"), "\(response)")
            // The reservation is returned: a body that fits is served.
            let small = try await server.test.raw("POST", "/echo", body: Array("x".utf8))
            #expect(small.status == 200 && small.text == "matched", "\(small)")
        }
    }

    @Test func aBodyNoRouteReads_IsHeldOnlyAsFarAsTheJournal() async throws {
        // No route reads bodies: 200 KB pass through a 100 KB budget, and the journal keeps its 64 KiB.
        try await withTestServer(configure: { $0.maxBodyMemoryBytes = 100_000 }) { server in
            let body = [UInt8](repeating: UInt8(ascii: "y"), count: 200_000)
            let response = try await server.raw("POST", "/api/v1/sleep", body: body)
            #expect(response.status == 200, "\(response)")
            let entry = try #require(server.server.journal.entries().last)
            #expect(entry.body.count == server.server.journal.bodyLimit)
            #expect(entry.bodyTruncated)
        }
    }

    @Test func aDeclaredBodyIsReservedWholeBeforeItArrives() async throws {
        // 6,000 declared bytes of a 10,000-byte budget are taken on the head, before the body
        // comes: a second 6,000-byte body does not fit and is refused (read and dropped, so its
        // client reads the 503), though only 1,000 bytes of the first have arrived.
        try await withRouteServer(tables: ["a.json": Self.echoRoute], configure: { $0.maxBodyMemoryBytes = 10_000 }) { server in
            let port = server.port
            let http = server.server
            let head = "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 6000\r\n\r\n"
            let (held, refused, served) = try await blocking { () throws -> (Int, RawResponse, RawResponse) in
                let slow = try RawConnection(port: port)
                try slow.send(head + String(repeating: "x", count: 1000))
                let deadline = Deadline(eventDeadline)
                while http.bodyMemoryInUse != 6000 && !deadline.hasPassed { usleep(2_000) }
                let held = http.bodyMemoryInUse
                let other = try RawConnection(port: port)
                try other.send(head + String(repeating: "x", count: 6000))
                let refused = try other.readResponse()
                try slow.send(String(repeating: "x", count: 5000))
                return (held, refused, try slow.readResponse())
            }
            #expect(held == 6000)
            #expect(refused.status == 503, "\(refused)")
            #expect(refused.header("Retry-After") == "1")
            #expect(served.status == 200 && served.text == "matched", "\(served)")
            let returned = try await blocking { () -> Int in
                let deadline = Deadline(eventDeadline)
                while http.bodyMemoryInUse != 0 && !deadline.hasPassed { usleep(2_000) }
                return http.bodyMemoryInUse
            }
            #expect(returned == 0, "every reservation is returned")
        }
    }

    @Test func aChunkedBodyIsCountedByWhatItsArrayHolds() async throws {
        // Chunked: no declared length. 3,000 bytes grow the array to 4,096 (the first step), which
        // fits in 5,000; 6,000 bytes would need the next step (8,192) and are refused.
        try await withRouteServer(tables: ["a.json": Self.echoRoute], configure: { $0.maxBodyMemoryBytes = 5_000 }) { server in
            @Sendable func chunked(_ count: Int) -> [UInt8] {
                Array("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".utf8)
                    + Array((String(count, radix: 16) + "\r\n" + String(repeating: "x", count: count) + "\r\n0\r\n\r\n").utf8)
            }
            let port = server.port
            let small = try await blocking { () throws -> RawResponse in
                let connection = try RawConnection(port: port)
                try connection.send(chunked(3000))
                return try connection.readResponse()
            }
            #expect(small.status == 200, "\(small)")
            let large = try await blocking { () throws -> RawResponse in
                let connection = try RawConnection(port: port)
                try connection.send(chunked(6000))
                return try connection.readResponse()
            }
            #expect(large.status == 503, "\(large)")
        }
    }
}
