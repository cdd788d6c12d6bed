import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockdCore
import MockdDisk
import MockdHTTP
import MockdProxy
import Testing
import TestSupport

/// `--delay` on every answer but the admin API's, proxied ones included: with partial mocking,
/// the real endpoints must not look faster than the mocks.
@Suite(.timeLimit(.minutes(1)))
struct GlobalDelayTests {
    /// A mockd with `delay` in front of an upstream mockd; `body` gets its port and the server.
    func withDelayedProxy(delay: Duration, _ body: (Int, HTTPServer) async throws -> Void) async throws {
        let upstreamData = try TemporaryFolder()
        defer { upstreamData.remove() }
        try upstreamData.write("mock_api_real_get.json", #"{"real": true}"#)
        try await withServer(root: upstreamData.path, configure: { $0.threads = 1 }, logger: testLogger) { upstream in
            let local = try TemporaryFolder()
            defer { local.remove() }
            try local.write("mock_api_mocked_get.json", #"{"mocked": true}"#)
            var proxyConfiguration = try ProxyConfiguration(upstream: "http://127.0.0.1:\(upstream.port)")
            proxyConfiguration.timeout = eventDeadline
            let proxy = UpstreamProxy(configuration: proxyConfiguration, logger: testLogger)
            defer { proxy.shutdown() }
            let missHandler = ProxyMissHandler(proxy: proxy, recorder: nil, logger: testLogger)
            let snapshot = try #require(MockDataLoader(files: DiskFiles(), root: local.path).load().snapshot)
            try await withServer(snapshot: snapshot, configure: { $0.globalDelay = delay }, logger: testLogger, missHandler: missHandler) {
                server in
                try await body(server.port, server)
            }
        }
    }

    func get(_ port: Int, _ path: String) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.timeoutInterval = 60
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test func aProxiedAnswerIsDelayedLikeAMockedOne() async throws {
        try await withDelayedProxy(delay: .milliseconds(300)) { port, server in
            let mocked = try await get(port, "/api/mocked")
            let proxied = try await get(port, "/api/real")
            #expect(mocked.0 == 200)
            #expect(proxied.0 == 200)
            #expect(String(decoding: proxied.1, as: UTF8.self) == #"{"real": true}"#)
            // On the server's clock, from the request line to the answer.
            let entries = server.journal.entries()
            #expect(entries.map(\.path) == ["/api/mocked", "/api/real"])
            #expect(entries.allSatisfy { $0.durationMicroseconds >= 300_000 }, "\(entries.map(\.durationMicroseconds)) µs")
            #expect(entries.last?.source.hasPrefix("proxy") == true)
        }
    }

    @Test func theAdminAPIIsNotDelayed() async throws {
        // A delay longer than the test may take: an admin answer that waited for it would fail the test.
        try await withDelayedProxy(delay: .seconds(120)) { port, _ in
            let health = try await get(port, "/__mockd/health")
            #expect(health.0 == 200)
        }
    }

    /// Stopping cuts `--delay` short for an upstream's answer too, as for every delayed answer:
    /// the client gets it at once, and the stop does not wait out the delay or its own deadline.
    @Test func stoppingCutsTheDelayOfAProxiedAnswerShort() async throws {
        try await withDelayedProxy(delay: .seconds(120)) { port, server in
            let answer = Task { try await get(port, "/api/real") }
            // Parked: first for the upstream call, then for the delay after its answer.
            let parked = try await blocking { () -> Bool in
                let deadline = ContinuousClock.now + eventDeadline
                while server.parkedCount == 0 && ContinuousClock.now < deadline { usleep(1000) }
                return server.parkedCount > 0
            }
            #expect(parked)
            let took = try await blocking { () -> Duration in
                let start = ContinuousClock.now
                server.shutdown()
                return ContinuousClock.now - start
            }
            #expect(took < .seconds(5), "the stop took \(took): it waited for the delay instead of cutting it short")
            let (status, _) = try await answer.value
            #expect(status == 200 || status == 503, "\(status)")
        }
    }
}
