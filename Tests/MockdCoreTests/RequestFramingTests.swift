import MockdCore
import Testing

@Suite("Request framing rules")
struct RequestFramingTests {
    static func check(_ method: String = "GET", _ version: String = "HTTP/1.1", _ headers: [(String, String)]) -> RequestFraming.Verdict {
        RequestFraming.check(method: method, version: version, head: RequestFraming.Head(headers.map { HTTPHeader($0.0, $0.1) }))
    }

    static func status(_ verdict: RequestFraming.Verdict) -> Int? {
        if case .refuse(let status, _) = verdict { return status }
        return nil
    }

    @Test func ordinaryRequests_AreAccepted() {
        #expect(Self.check("GET", "HTTP/1.1", [("Host", "a")]) == .accept)
        #expect(Self.check("POST", "HTTP/1.1", [("host", "a"), ("content-length", "12")]) == .accept)
        #expect(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Transfer-Encoding", "Chunked")]) == .accept)
        #expect(Self.check("GET", "HTTP/1.0", []) == .accept)
        #expect(Self.check("M-SEARCH", "HTTP/1.1", [("Host", "a")]) == .accept)
    }

    @Test func contentLengths() {
        #expect(Self.status(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Content-Length", "3"), ("Content-Length", "4")])) == 400)
        #expect(Self.status(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Content-Length", "3, 4")])) == 400)
        #expect(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Content-Length", "3"), ("Content-Length", "3")]) == .accept)
        #expect(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Content-Length", "3, 3")]) == .accept)
        #expect(Self.status(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Content-Length", "abc")])) == 400)
        #expect(Self.status(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Content-Length", "-1")])) == 400)
        #expect(Self.status(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Content-Length", "")])) == 400)
    }

    @Test func transferCodings() {
        #expect(
            Self.status(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Content-Length", "9"), ("Transfer-Encoding", "chunked")])) == 400)
        // Chunked not last: the body's end is unknown (RFC 9112 §6.3 rule 4).
        #expect(Self.status(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Transfer-Encoding", "foo")])) == 400)
        #expect(Self.status(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Transfer-Encoding", "chunked, gzip")])) == 400)
        #expect(Self.status(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Transfer-Encoding", "foo"), ("Content-Length", "3")])) == 400)
        #expect(Self.status(Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Transfer-Encoding", "gzip, chunked")])) == 501)
        #expect(
            Self.status(
                Self.check("POST", "HTTP/1.1", [("Host", "a"), ("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")])) == 501)
    }

    @Test func hosts() {
        #expect(Self.status(Self.check("GET", "HTTP/1.1", [])) == 400)
        #expect(Self.status(Self.check("GET", "HTTP/1.1", [("Host", "a"), ("host", "b")])) == 400)
    }

    @Test func methods() {
        #expect(Self.status(Self.check("get", "HTTP/1.1", [("Host", "a")])) == 501)
        #expect(Self.status(Self.check("G(T", "HTTP/1.1", [("Host", "a")])) == 501)
        #expect(Self.status(Self.check("", "HTTP/1.1", [("Host", "a")])) == 501)
    }
}
