import Foundation
import MockdCore
import MockdHTTP
import Testing

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
}
