import MockdCore
@testable import MockdProxy
import Testing

struct ForwardingRulesTests {
    @Test func encodesADecodedPathForAURL() {
        #expect(ForwardingRules.encodePath("/api/users") == "/api/users")
        #expect(ForwardingRules.encodePath("/a b/ü") == "/a%20b/%C3%BC")
        #expect(ForwardingRules.encodePath("/100%/x?y#z") == "/100%25/x%3Fy%23z")
        #expect(ForwardingRules.encodePath("/keep:@!$&'()*+,;=-._~") == "/keep:@!$&'()*+,;=-._~")
        #expect(ForwardingRules.encodePath("no-slash") == "/no-slash")
        #expect(ForwardingRules.encodePath("/\"<>\\^`{|}") == "/%22%3C%3E%5C%5E%60%7B%7C%7D")
    }

    @Test func keepsAValidQueryAndRepairsAnInvalidOne() {
        #expect(ForwardingRules.sanitizeQuery("a=1&b=%C3%BC&c&d=x+y/z?w") == "a=1&b=%C3%BC&c&d=x+y/z?w")
        #expect(ForwardingRules.sanitizeQuery("a=b c|d") == "a=b%20c%7Cd")
        #expect(ForwardingRules.sanitizeQuery("p=100%&q=%zz&r=%4") == "p=100%25&q=%25zz&r=%254")
        #expect(ForwardingRules.sanitizeQuery("name=ü") == "name=%C3%BC")
    }

    @Test func dropsConnectionOptionsAndJoinsRepeats() {
        let forwarded = ForwardingRules.forwardedRequestHeaders([
            .init("Connection", "close, X-A"), .init("X-A", "1"), .init("X-B", "1"), .init("x-b", "2"),
            .init("Bad Name", "v"), .init("X-C", "line\r\nInjected: yes"),
        ])
        #expect(forwarded == [.init("X-B", "1, 2")])
    }

    @Test func dropsContentEncodingOnlyWhenTheBodyWasDecoded() {
        let headers: [HTTPHeader] = [.init("Content-Encoding", "gzip"), .init("Content-Length", "10"), .init("ETag", "\"x\"")]
        // Relayed as it came (the usual case): the body is still gzip.
        #expect(ForwardingRules.relayedResponseHeaders(headers) == [.init("Content-Encoding", "gzip"), .init("ETag", "\"x\"")])
        // Decoded on the way (recording).
        #expect(ForwardingRules.relayedResponseHeaders(headers, bodyDecoded: true) == [.init("ETag", "\"x\"")])
        let kept = ForwardingRules.relayedResponseHeaders([.init("Content-Encoding", "compress")], bodyDecoded: true)
        #expect(kept == [.init("Content-Encoding", "compress")])
    }

    @Test func keepsTheUpstreamsOrderAndRepeatedFields() {
        let relayed = ForwardingRules.relayedResponseHeaders([
            .init("Set-Cookie", "a=1"), .init("X-Between", "1"), .init("set-cookie", "b=2"), .init("Connection", "close"),
            .init("Content-Type", "text/plain"),
        ])
        #expect(
            relayed == [
                .init("Set-Cookie", "a=1"), .init("X-Between", "1"), .init("set-cookie", "b=2"), .init("Content-Type", "text/plain"),
            ])
    }

    @Test func forwardsAcceptEncodingUnlessTheAnswerIsDecoded() {
        let headers: [HTTPHeader] = [.init("Accept-Encoding", "gzip, br"), .init("Accept", "*/*")]
        #expect(ForwardingRules.forwardedRequestHeaders(headers) == headers)
        #expect(ForwardingRules.forwardedRequestHeaders(headers, decodingAnswer: true) == [.init("Accept", "*/*")])
    }

    @Test func checksTheUpstreamURL() throws {
        #expect(throws: ProxyConfigurationError.self) { try ProxyConfiguration(upstream: "ftp://example.com") }
        #expect(throws: ProxyConfigurationError.self) { try ProxyConfiguration(upstream: "example.com") }
        #expect(throws: ProxyConfigurationError.self) { try ProxyConfiguration(upstream: "http://example.com/?a=1") }
        #expect(try ProxyConfiguration(upstream: "https://api.example.com/v2/").upstreamPrefix == "https://api.example.com/v2")
        #expect(try ProxyConfiguration(upstream: "http://127.0.0.1:9000").upstreamPrefix == "http://127.0.0.1:9000")
    }
}
