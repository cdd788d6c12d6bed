import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdHTTP
import Testing
import TestSupport

/// libmicrohttpd's response for a file is made by the first request for it (`ServingState`):
/// first requests that race on several server threads each get their own file's bytes and
/// headers, and a reload serves the new bytes.
@Suite("Responses made on first request")
struct FirstRequestTests {
    static let files: [String: String] = Dictionary(
        uniqueKeysWithValues: (1...40).map { index in
            ("mock_items_\(index)_get.json", #"{"item": \#(index)}"#)
        })

    @Test func firstRequestsRacingOnFourThreads_EachGetTheirFile() async throws {
        try await withTestServer(files: Self.files, configure: { $0.threads = 4 }) { server in
            // Every file asked for 8 times at once: the first requests for one file race to make its response.
            let results = try await allAtOnce(8 * 40) { request -> (Int, HTTPResult) in
                let round = request / 40, index = request % 40 + 1
                return (index, try await server.request("GET", "/items/\(index)\(round % 2 == 0 ? "" : "/")"))
            }
            #expect(results.count == 320)
            for (index, result) in results {
                #expect(result.status == 200)
                #expect(result.text == #"{"item": \#(index)}"#)
                #expect(result.header("X-Mockd-Source") == "file mock_items_\(index)_get.json")
                #expect(result.header("Content-Type") == "application/json; charset=utf-8")
            }
        }
    }
}
