import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Logging
import MockdCore
import MockdDisk
import MockdHTTP
@testable import MockdProxy
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct UpstreamProxyTests {
    func proxy(port: Int, base: String = "", scheme: String = "http", timeout: Duration = eventDeadline, record: Bool = false) throws
        -> UpstreamProxy
    {
        var configuration = try ProxyConfiguration(upstream: "\(scheme)://127.0.0.1:\(port)\(base)")
        configuration.timeout = timeout
        configuration.record = record
        return UpstreamProxy(configuration: configuration, logger: testLogger)
    }

    @Test func passesMethodPathQueryBodyAndHeadersThrough() async throws {
        let upstream = try TestUpstream(
            response:
                "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nX-Upstream: yes\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{\"id\":\"42\"}"
        )
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
        // As the client sent it: the answer is relayed as encoded.
        #expect(received.header("Accept-Encoding") == "compress")
        // Nothing of libcurl's own: no Accept, no Expect.
        #expect(!received.has("Accept"))
        #expect(!received.has("Expect"))
    }

    @Test func stripsHopByHopHeadersBothWays() async throws {
        let upstream = try TestUpstream(
            response: """
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
        let request = MockRequest(
            method: "PUT", path: "/hop",
            headers: [
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
        #expect(
            relayed.isDisjoint(with: ["connection", "x-hop-response", "keep-alive", "proxy-authenticate", "upgrade", "content-length"]))
        #expect(outcome.response.headers.first(named: "X-End-To-End") == "kept")

        let received = try #require(upstream.received.first)
        for name in ["X-Hop-Request", "Keep-Alive", "TE", "Trailer", "Upgrade", "Proxy-Authorization", "Transfer-Encoding"] {
            #expect(!received.has(name), "\(name) was forwarded")
        }
        #expect(!(received.header("Connection") ?? "").lowercased().contains("x-hop-request"))
        #expect(received.header("X-End-To-End") == "kept")
        #expect(received.body == Array("data".utf8))
    }

    static let gzipped: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x56, 0xaa, 0xca, 0x2c, 0x28, 0x48,
        0x4d, 0x51, 0xb2, 0x2a, 0x29, 0x2a, 0x4d, 0xad, 0x05, 0x00, 0x84, 0x28, 0xbc, 0x08, 0x0f, 0x00, 0x00, 0x00,
    ]
    static let gzippedAnswer =
        Array(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipped.count)\r\nConnection: close\r\n\r\n"
                .utf8) + gzipped

    @Test func relaysAnEncodedBodyAsItCame() async throws {
        let upstream = try TestUpstream(mode: .answer(Self.gzippedAnswer))
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port)
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/zipped", headers: [HTTPHeader("Accept-Encoding", "gzip")]))

        #expect(outcome.response.status == 200)
        #expect(outcome.response.body == Self.gzipped)
        #expect(outcome.response.headers.first(named: "Content-Encoding") == "gzip")
        // libmicrohttpd writes Content-Length from the body, which is the upstream's.
        #expect(outcome.response.headers.first(named: "Content-Length") == nil)
        #expect(upstream.received.first?.header("Accept-Encoding") == "gzip")
        #expect(outcome.undoneCoding == nil)
    }

    @Test func decodesTheAnswerWhenRecording() async throws {
        let upstream = try TestUpstream(mode: .answer(Self.gzippedAnswer))
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port, record: true)
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/zipped", headers: [HTTPHeader("Accept-Encoding", "compress")]))

        #expect(outcome.response.status == 200)
        #expect(String(decoding: outcome.response.body, as: UTF8.self) == #"{"zipped":true}"#)
        #expect(outcome.response.headers.first(named: "Content-Encoding") == nil)
        #expect(outcome.response.headers.first(named: "Content-Length") == nil)
        // The coding that was undone, for a recorded route to say.
        #expect(outcome.undoneCoding == "gzip")
        // libcurl's list of what it decodes, not the client's.
        let sent = try #require(upstream.received.first?.header("Accept-Encoding"))
        #expect(sent.contains("gzip"))
        #expect(!sent.contains("compress"))
    }

    @Test func keepsRepeatedHeadersInOrderAndSkipsInformationalAnswers() async throws {
        let upstream = try TestUpstream(
            response: """
                HTTP/1.1 103 Early Hints\r
                Link: </style.css>; rel=preload\r
                \r
                HTTP/1.1 200 OK\r
                Set-Cookie: a=1; Path=/\r
                X-Between: 1\r
                Set-Cookie: b=2; Path=/\r
                Content-Length: 2\r
                Connection: close\r
                \r
                ok
                """)
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port)
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/cookies"))

        #expect(outcome.response.status == 200)
        #expect(outcome.response.body == Array("ok".utf8))
        #expect(
            outcome.response.headers == [
                HTTPHeader("Set-Cookie", "a=1; Path=/"), HTTPHeader("X-Between", "1"), HTTPHeader("Set-Cookie", "b=2; Path=/"),
            ])
    }

    @Test func addsNoFieldsOfItsOwnAndSendsLargeBodiesWhole() async throws {
        let upstream = try TestUpstream(response: "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port)
        defer { proxy.shutdown() }
        let body = (0..<(2 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 % 251) }

        let large = await proxy.forward(MockRequest(method: "POST", path: "/upload", headers: [HTTPHeader("X-Empty", "")], body: body))
        let empty = await proxy.forward(MockRequest(method: "PUT", path: "/empty"))
        let delete = await proxy.forward(MockRequest(method: "DELETE", path: "/gone"))

        #expect([large.response.status, empty.response.status, delete.response.status] == [Int](repeating: 204, count: 3))
        let received = upstream.received
        try #require(received.count == 3)
        #expect(received[0].method == "POST")
        #expect(received[0].body == body)
        #expect(received[0].header("Content-Length") == String(body.count))
        #expect(received[0].header("X-Empty") == "")
        for name in ["Content-Type", "Expect", "Accept", "User-Agent"] {
            #expect(!received[0].has(name), "\(name) was added")
        }
        #expect(received[1].method == "PUT")
        #expect(received[1].header("Content-Length") == "0")
        #expect(received[2].method == "DELETE")
        #expect(!received[2].has("Content-Length"))
    }
    @Test func relaysARedirectWithoutFollowingIt() async throws {
        let upstream = try TestUpstream(
            response:
                "HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Type: application/json\r\nContent-Length: 14\r\nConnection: close\r\n\r\n{\"moved\":true}"
        )
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

        // A refused connect answers at once; the bound only tells it from waiting for the 5 s timeout,
        // generously, because a loaded machine may take seconds to resume the awaiting task.
        #expect(ContinuousClock.now - started < .seconds(5) * loadAllowance)
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
        // Timed on a thread of its own: the cooperative pool's queue is not the upstream's timeout.
        let (outcome, elapsed) = try await onOwnThread { () -> (ProxyOutcome, Duration) in
            let started = ContinuousClock.now
            let outcome = await proxy.forward(MockRequest(method: "GET", path: "/slow"))
            return (outcome, ContinuousClock.now - started)
        }
        #expect(elapsed >= .milliseconds(950))
        #expect(elapsed < .seconds(4) * loadAllowance, "\(elapsed)")
        #expect(outcome.failure?.kind == .timedOut)
        #expect(outcome.response.status == 504)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.response.body)) as? [String: String])
        #expect(json["error"] == "upstream timed out")
        #expect(json["reason"] == "no answer within 1 s (--proxy-timeout)")
    }

    @Test func cancellingTheCallerCancelsTheUpstreamRequest() async throws {
        let upstream = try TestUpstream(mode: .stall)
        defer { upstream.stop() }
        // A timeout far beyond the test's 60 s limit: the answer can only come from the cancel.
        let proxy = try proxy(port: upstream.port, timeout: .seconds(600))
        defer { proxy.shutdown() }
        // Started and timed on threads of their own: the cooperative pool's queue is not the cancel's time.
        let (outcome, elapsed) = try await onOwnThread { () -> (ProxyOutcome, Duration) in
            let started = ContinuousClock.now
            let task = taskOnOwnThread { await proxy.forward(MockRequest(method: "GET", path: "/slow")) }
            #expect(await upstream.waitForConnection(within: eventDeadline))
            task.cancel()
            let outcome = try await task.value
            return (outcome, ContinuousClock.now - started)
        }
        #expect(elapsed < .seconds(5) * loadAllowance, "\(elapsed)")
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

    @Test func sendsTheBodyOfAGet() async throws {
        let upstream = try TestUpstream(response: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port)
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(
            MockRequest(
                method: "GET", path: "/search", headers: [HTTPHeader("Content-Type", "application/json")],
                body: Array("{}".utf8)))
        #expect(outcome.response.status == 200)
        #expect(upstream.received.first?.method == "GET")
        #expect(upstream.received.first?.body == Array("{}".utf8))
        #expect(upstream.received.first?.header("Content-Type") == "application/json")
    }

    @Test func aShortTimeoutIsKeptToTheMillisecond() async throws {
        let upstream = try TestUpstream(mode: .stall)
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port, timeout: .milliseconds(300))
        defer { proxy.shutdown() }
        // Timed on a thread of its own: the cooperative pool's queue is not the upstream's timeout.
        let (outcome, elapsed) = try await onOwnThread { () -> (ProxyOutcome, Duration) in
            let started = ContinuousClock.now
            let outcome = await proxy.forward(MockRequest(method: "POST", path: "/slow", body: Array("x".utf8)))
            return (outcome, ContinuousClock.now - started)
        }
        #expect(elapsed >= .milliseconds(290))
        // Wall-clock time on a loaded machine cannot tell 300 ms from 1 s; what libcurl is given can.
        #expect(elapsed < .seconds(3) * loadAllowance, "\(elapsed)")
        #expect(UpstreamProxy.timeoutMilliseconds(.milliseconds(300)) == 300)
        #expect(UpstreamProxy.timeoutMilliseconds(.milliseconds(1500)) == 1500)
        #expect(UpstreamProxy.timeoutMilliseconds(.microseconds(10)) == 1)
        #expect(outcome.response.status == 504)
        #expect(outcome.failure?.reason == "no answer within 300 ms (--proxy-timeout)")
    }

    @Test func anUnknownHostIs502() async throws {
        var configuration = try ProxyConfiguration(upstream: "http://mockd-test.invalid")
        configuration.timeout = .seconds(10)
        let proxy = UpstreamProxy(configuration: configuration, logger: testLogger)
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/x"))

        #expect(outcome.response.status == 502)
        #expect(outcome.failure?.kind == .unreachable)
        #expect(outcome.failure?.reason.contains("mockd-test.invalid") == true)
    }

    @Test func aTLSFailureIs502() async throws {
        // A plain HTTP answer to the TLS handshake.
        let upstream = try TestUpstream(mode: .answerWithoutReading(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)))
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port, scheme: "https")
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/secure"))

        #expect(outcome.response.status == 502)
        #expect(outcome.failure?.kind == .tls)
        #expect(outcome.failure?.reason.isEmpty == false)
    }

    @Test func withoutLibcurlEveryForwardIs502() async throws {
        let configuration = try ProxyConfiguration(upstream: "http://127.0.0.1:9")
        let proxy = UpstreamProxy(
            configuration: configuration, logger: testLogger,
            library: .failure(CurlLoadError(description: "libcurl.so.4: cannot open shared object file")))
        defer { proxy.shutdown() }

        let outcome = await proxy.forward(MockRequest(method: "GET", path: "/x"))

        #expect(outcome.response.status == 502)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.response.body)) as? [String: String])
        #expect(json["error"] == "upstream unreachable")
        #expect(json["reason"] == "libcurl could not be loaded: libcurl.so.4: cannot open shared object file")
    }

    @Test func loadsLibcurl() throws {
        let library = try CurlLibrary.shared.get()
        #expect(library.version.hasPrefix("libcurl/"))
    }

    @Test func shutdownCancelsWhatIsInFlight() async throws {
        let upstream = try TestUpstream(mode: .stall)
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port, timeout: .seconds(600))
        // Started and timed on threads of their own (see onOwnThread).
        let (outcomes, elapsed) = try await onOwnThread { () -> ([ProxyOutcome], Duration) in
            let tasks = (0..<3).map { index in taskOnOwnThread { await proxy.forward(MockRequest(method: "GET", path: "/slow/\(index)")) } }
            for _ in tasks { #expect(await upstream.waitForConnection(within: eventDeadline)) }
            let started = ContinuousClock.now
            proxy.shutdown()
            var outcomes: [ProxyOutcome] = []
            for task in tasks { outcomes.append(try await task.value) }
            return (outcomes, ContinuousClock.now - started)
        }
        for outcome in outcomes {
            #expect(outcome.response.status == 503)
            #expect(outcome.failure?.kind == .cancelled)
        }
        #expect(elapsed < .seconds(2) * loadAllowance, "\(elapsed)")
        let late = await proxy.forward(MockRequest(method: "GET", path: "/late"))
        #expect(late.response.status == 503)
        proxy.shutdown()
    }

    /// The thread driving libcurl sleeps in curl_multi_poll while transfers wait (URLSession on Linux spun).
    @Test func usesNoCPUWhileRequestsWait() async throws {
        let upstream = try TestUpstream(mode: .stall)
        defer { upstream.stop() }
        let proxy = try proxy(port: upstream.port, timeout: .seconds(600))
        defer { proxy.shutdown() }
        let tasks = (0..<20).map { index in taskOnOwnThread { await proxy.forward(MockRequest(method: "GET", path: "/slow/\(index)")) } }
        for _ in tasks { #expect(await upstream.waitForConnection(within: eventDeadline)) }

        let before = try #require(proxy.loopCPUTime)
        try await Task.sleep(for: .seconds(1))
        let after = try #require(proxy.loopCPUTime)
        // CPU time of the loop thread, not wall-clock time: a busy machine does not add to it.
        #expect(after - before < .milliseconds(50), "proxy thread CPU while 20 requests waited 1 s: \(after - before)")

        for task in tasks { task.cancel() }
        for task in tasks { #expect(try await task.value.response.status == 503) }
    }

    @Test func throughARealMockdUpstream() async throws {
        let data = try TemporaryFolder()
        defer { data.remove() }
        try data.write("users/mock_api_users_get.json", "{\"b\": 2, \"a\": [1, 2]}\n")
        try await withServer(root: data.path, configure: { $0.threads = 1 }, logger: testLogger) { upstreamServer in
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
    }

    @Test func manyConcurrentForwardsEachGetTheirOwnAnswer() async throws {
        let data = try TemporaryFolder()
        defer { data.remove() }
        for index in 0..<20 { try data.write("mock_item_\(index)_get.json", "{\"item\": \(index)}") }
        try await withServer(root: data.path, configure: { $0.threads = 1 }, logger: testLogger) { upstreamServer in
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
}

/// RFC 9110 §4.2.3: `%2F` is not `/`. A miss is forwarded with the target as the client sent it.
@Suite("Proxy request target")
struct ProxyTargetTests {
    @Test("the target is forwarded as received", arguments: ["/nomock/a%2Fb", "/nomock/%7Euser/x%20y", "/nomock/caf%C3%A9?q=a%2Fb"])
    func encodedTarget_IsForwardedAsReceived(target: String) async throws {
        let upstream = try TestUpstream(response: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
        defer { upstream.stop() }
        let data = try TemporaryFolder()
        defer { data.remove() }
        try data.write("mock_api_users_get.json", "[]")
        let loaded = MockDataLoader(files: DiskFiles(), root: data.path).load()
        let snapshot = try #require(loaded.snapshot)
        let proxyConfiguration = try ProxyConfiguration(upstream: "http://127.0.0.1:\(upstream.port)")
        let missHandler = ProxyMissHandler(
            proxy: UpstreamProxy(configuration: proxyConfiguration, logger: testLogger), recorder: nil, logger: testLogger)
        try await withServer(snapshot: snapshot, logger: testLogger, missHandler: missHandler) { server in
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)\(target)"))
            let (_, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(upstream.received.first?.target == target)
        }
    }
}
