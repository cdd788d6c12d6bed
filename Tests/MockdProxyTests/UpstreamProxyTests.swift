import Foundation
import Logging
import MockdCore
import MockdHTTP
@testable import MockdProxy
import Testing

@Suite(.timeLimit(.minutes(1)))
struct UpstreamProxyTests {
    func proxy(port: Int, base: String = "", timeout: Duration = .seconds(5)) throws -> UpstreamProxy {
        var configuration = try ProxyConfiguration(upstream: "http://127.0.0.1:\(port)\(base)")
        configuration.timeout = timeout
        return UpstreamProxy(configuration: configuration, logger: testLogger)
    }

    @Test func passesMethodPathQueryBodyAndHeadersThrough() async throws {
        let upstream = try TestUpstream(response: "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Upstream: yes\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{\"id\":\"42\"}")
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port, base: "/base/")
        defer { proxy.shutdown() }
        let body = Array(#"{"name":"Jürgen"}"#.utf8)
        let request = MockRequest(
            method: "POST", path: "/api/a b/ü/100%/what?#not-a-fragment",
            rawQuery: "q=1&name=J%C3%BCrgen&flag&sp=a+b",
            headers: [
                HTTPHeader("Host", "127.0.0.1:8080"),
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("Content-Length", "999"),
                HTTPHeader("Authorization", "Bearer abc"),
                HTTPHeader("X-Custom", "1"),
                HTTPHeader("x-custom", "2"),
                HTTPHeader("Cookie", "a=1"),
                HTTPHeader("Cookie", "b=2"),
                HTTPHeader("X-Mock-Scenario", "error"),
                HTTPHeader("X-Mock-Session", "sim-3"),
                HTTPHeader("Accept-Encoding", "compress"),
            ],
            body: body)

        let outcome = await proxy.forward(request)

        #expect(outcome.fromUpstream)
        #expect(outcome.response.status == 201)
        #expect(outcome.response.body == Array(#"{"id":"42"}"#.utf8))
        #expect(outcome.response.source == "proxy")
        #expect(outcome.response.headers.first(named: "X-Upstream") == "yes")
        #expect(outcome.response.headers.first(named: "Content-Type") == "application/json")
        #expect(outcome.upstreamDuration > .zero)

        let received = try #require(upstream.received.first)
        #expect(received.method == "POST")
        #expect(received.target == "/base/api/a%20b/%C3%BC/100%25/what%3F%23not-a-fragment?q=1&name=J%C3%BCrgen&flag&sp=a+b")
        #expect(received.body == body)
        #expect(received.header("Host") == "127.0.0.1:\(upstream.port)")
        #expect(received.header("Content-Length") == String(body.count))
        #expect(received.header("Content-Type") == "application/json")
        #expect(received.header("Authorization") == "Bearer abc")
        #expect(received.header("X-Custom") == "1, 2")
        #expect(received.header("Cookie") == "a=1; b=2")
        #expect(!received.has("X-Mock-Scenario"))
        #expect(!received.has("X-Mock-Session"))
        #expect(received.header("Accept-Encoding") != "compress")
    }

    @Test func stripsHopByHopHeadersBothWays() async throws {
        let upstream = try TestUpstream(response: """
            HTTP/1.1 200 OK\r
            Connection: close, X-Hop-Response\r
            X-Hop-Response: 1\r
            Keep-Alive: timeout=5\r
            Proxy-Authenticate: Basic realm="up"\r
            Upgrade: h2c\r
            X-End-To-End: kept\r
            Content-Type: text/plain\r
            Content-Length: 2\r
            \r
            ok
            """)
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port)
        defer { proxy.shutdown() }
        let request = MockRequest(method: "PUT", path: "/hop", headers: [
            HTTPHeader("Connection", "keep-alive, X-Hop-Request"),
            HTTPHeader("X-Hop-Request", "secret"),
            HTTPHeader("Keep-Alive", "timeout=5"),
            HTTPHeader("TE", "trailers"),
            HTTPHeader("Trailer", "X-Checksum"),
            HTTPHeader("Upgrade", "websocket"),
            HTTPHeader("Proxy-Authorization", "Basic Zm9vOmJhcg=="),
            HTTPHeader("Transfer-Encoding", "chunked"),
            HTTPHeader("X-End-To-End", "kept"),
        ], body: Array("data".utf8))

        let outcome = await proxy.forward(request)

        #expect(outcome.response.status == 200)
        #expect(outcome.response.body == Array("ok".utf8))
        let relayed = Set(outcome.response.headers.map { $0.name.lowercased() })
        #expect(relayed.isDisjoint(with: ["connection", "x-hop-response", "keep-alive", "proxy-authenticate", "upgrade", "content-length"]))
        #expect(outcome.response.headers.first(named: "X-End-To-End") == "kept")

        let received = try #require(upstream.received.first)
        for name in ["X-Hop-Request", "Keep-Alive", "TE", "Trailer", "Upgrade", "Proxy-Authorization", "Transfer-Encoding"] {
            #expect(!received.has(name), "\(name) was forwarded")
        }
        #expect(!(received.header("Connection") ?? "").lowercased().contains("x-hop-request"))
        #expect(received.header("X-End-To-End") == "kept")
        #expect(received.body == Array("data".utf8))
    }

    @Test func relaysADecodedBodyWithoutContentEncoding() async throws {
        let gzipped: [UInt8] = [0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x56, 0xaa, 0xca, 0x2c, 0x28, 0x48,
                                0x4d, 0x51, 0xb2, 0x2a, 0x29, 0x2a, 0x4d, 0xad, 0x05, 0x00, 0x84, 0x28, 0xbc, 0x08, 0x0f, 0x00, 0x00, 0x00]
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipped.count)\r\nConnection: close\r\n\r\n"
        let upstream = try TestUpstream(mode: .answer(Array(head.utf8) + gzipped))
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port)
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/zipped", headers: [HTTPHeader("Accept-Encoding", "gzip")]))

        #expect(outcome.response.status == 200)
        #expect(String(decoding: outcome.response.body, as: UTF8.self) == #"{"zipped":true}"#)
        #expect(outcome.response.headers.first(named: "Content-Encoding") == nil)
        #expect(outcome.response.headers.first(named: "Content-Length") == nil)
    }

    @Test func relaysARedirectWithoutFollowingIt() async throws {
        let upstream = try TestUpstream(response: "HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Type: application/json\r\nContent-Length: 14\r\nConnection: close\r\n\r\n{\"moved\":true}")
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port)
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(MockRequest(method: "POST", path: "/old", body: Array("x=1".utf8)))

        #expect(outcome.fromUpstream)
        #expect(outcome.response.status == 302)
        #expect(outcome.response.headers.first(named: "Location") == "/elsewhere")
        #expect(outcome.response.body == Array(#"{"moved":true}"#.utf8))
        #expect(upstream.received.count == 1)
        #expect(upstream.received.first?.target == "/old")
    }

    @Test func aStoppedUpstreamIs502() async throws {
        let port = try TestUpstream.closedPort()
        let proxy = try proxy(port: port)
        defer { proxy.shutdown() }
        let started = ContinuousClock.now

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/api/users"))

        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(!outcome.fromUpstream)
        #expect(outcome.failure?.kind == .unreachable)
        #expect(outcome.response.status == 502)
        #expect(outcome.response.headers.first(named: "Content-Type") == ContentType.json)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.response.body)) as? [String: String])
        #expect(json["error"] == "upstream unreachable")
        #expect(json["upstream"] == "http://127.0.0.1:\(port)")
        #expect(!(json["reason"] ?? "").isEmpty)
    }

    @Test func aStalledUpstreamIs504AfterTheTimeout() async throws {
        let upstream = try TestUpstream(mode: .stall)
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port, timeout: .seconds(1))
        defer { proxy.shutdown() }
        let started = ContinuousClock.now

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/slow"))

        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(950))
        #expect(elapsed < .seconds(4))
        #expect(outcome.failure?.kind == .timedOut)
        #expect(outcome.response.status == 504)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.response.body)) as? [String: String])
        #expect(json["error"] == "upstream timed out")
        #expect(json["reason"] == "no answer within 1 s (--proxy-timeout)")
    }

    @Test func cancellingTheCallerCancelsTheUpstreamRequest() async throws {
        let upstream = try TestUpstream(mode: .stall)
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port, timeout: .seconds(30))
        defer { proxy.shutdown() }
        let started = ContinuousClock.now
        let task = Task { await proxy.forward(MockRequest(method: "GET", path: "/slow")) }
        #expect(await upstream.waitForConnection(within: .seconds(5)))
        task.cancel()
        let outcome = await task.value
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(outcome.response.status == 503)
        #expect(outcome.failure?.kind == .cancelled)

        // Cancelled before it starts: answers at once, nothing sent.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await proxy.forward(MockRequest(method: "GET", path: "/never"))
        }
        #expect(await early.value.response.status == 503)
    }

    @Test func refusesAnAnswerLargerThanTheLimit() async throws {
        let body = String(repeating: "x", count: 4096)
        let upstream = try TestUpstream(response: "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n\(body)")
        defer { upstream.stop() }
        var configuration = try ProxyConfiguration(upstream: "http://127.0.0.1:\(upstream.port)")
        configuration.maxResponseBytes = 1000
        let proxy = UpstreamProxy(configuration: configuration, logger: testLogger)
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/big"))
        #expect(outcome.response.status == 502)
        #expect(outcome.failure?.kind == .tooLarge)
    }

    @Test func dropsTheBodyOfAGetInsteadOfFailing() async throws {
        let upstream = try TestUpstream(response: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port)
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/search", body: Array("{}".utf8)))
        #expect(outcome.response.status == 200)
        #expect(upstream.received.first?.body == [])
    }

    @Test func throughARealMockdUpstream() async throws {
        let data = try TemporaryFolder()
        defer { data.remove() }
        try data.write("users/mock_api_users_get.json", "{\"b\": 2, \"a\": [1, 2]}\n")
        let upstreamServer = try startMockd(root: data.path)
        defer { upstreamServer.shutdown(timeout: .seconds(1)) }
        let proxy = try proxy(port: upstreamServer.port)
        defer { proxy.shutdown() }

        let hit = await proxy.forward(MockRequest(method: "GET", path: "/api/users/", rawQuery: "page=2"))
        #expect(hit.response.status == 200)
        #expect(String(decoding: hit.response.body, as: UTF8.self) == "{\"b\": 2, \"a\": [1, 2]}\n")
        #expect(hit.response.headers.first(named: "Content-Type") == ContentType.json)
        // The upstream mockd's own X-Mockd-Source is not relayed: the serving mockd adds "proxy".
        #expect(hit.response.headers.first(named: "X-Mockd-Source") == nil)

        let miss = await proxy.forward(MockRequest(method: "GET", path: "/api/nothing"))
        #expect(miss.fromUpstream)
        #expect(miss.response.status == 404)

        let head = await proxy.forward(MockRequest(method: "HEAD", path: "/api/users"))
        #expect(head.response.status == 200)
        #expect(head.response.body.isEmpty)
        #expect(head.response.headers.first(named: "Content-Type") == ContentType.json)
    }

    @Test func manyConcurrentForwardsEachGetTheirOwnAnswer() async throws {
        let data = try TemporaryFolder()
        defer { data.remove() }
        for index in 0..<20 { try data.write("mock_item_\(index)_get.json", "{\"item\": \(index)}") }
        let upstreamServer = try startMockd(root: data.path)
        defer { upstreamServer.shutdown(timeout: .seconds(1)) }
        let proxy = try proxy(port: upstreamServer.port)
        defer { proxy.shutdown() }

        let count = 400
        let started = ContinuousClock.now
        let mismatches = await withTaskGroup(of: Bool.self) { group in
            for request in 0..<count {
                group.addTask {
                    let index = request % 20
                    let outcome = await proxy.forward(MockRequest(method: "GET", path: "/item/\(index)"))
                    return outcome.response.status == 200 && outcome.response.body == Array("{\"item\": \(index)}".utf8)
                }
            }
            var bad = 0
            for await ok in group where !ok { bad += 1 }
            return bad
        }
        let elapsed = ContinuousClock.now - started
        #expect(mismatches == 0)
        print("proxied \(count) concurrent requests in \(elapsed)")
    }
}

/// A second mockd serving `root` on 127.0.0.1:<free port>.
func startMockd(root: String) throws -> HTTPServer {
    let loaded = MockDataLoader(root: root).load()
    guard let snapshot = loaded.snapshot else { throw TestError("cannot load \(root): \(loaded.diagnostics)") }
    var configuration = ServerConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.threads = 1
    let server = HTTPServer(configuration: configuration, snapshot: snapshot, runtime: RuntimeState(), logger: testLogger)
    try server.start()
    return server
}
