@testable import MockdCore
import Testing

/// Field names compare as HTTP does: ASCII letters case-insensitively, everything else exactly.
@Suite("HTTP header names")
struct HTTPHeaderTests {
    @Test(arguments: [
        ("Content-Length", "content-length", true), ("HOST", "host", true), ("X-Mock-Scenario", "x-mock-scenario", true),
        ("A-Very-Long-Header-Name-Past-Fifteen-Bytes", "a-very-long-header-name-past-fifteen-bytes", true),
        ("Host", "Hosts", false), ("Content-Length", "Transfer-Encoding", false), ("Accept", "Accepr", false),
        // '@' (0x40) and '`' (0x60) differ only in the case bit, but are not letters.
        ("X@", "X`", false), ("X[", "X{", false), ("", "", true),
    ])
    func namesEqual(a: String, b: String, equal: Bool) {
        #expect(HTTPHeader.namesEqual(a, b) == equal)
        #expect(HTTPHeader.namesEqual(b, a) == equal)
    }

    @Test func firstNamedFindsTheFirstOfRepeatedNames() {
        let headers = [HTTPHeader("Set-Cookie", "a=1"), HTTPHeader("set-cookie", "b=2"), HTTPHeader("Host", "x")]
        #expect(headers.first(named: "SET-COOKIE") == "a=1")
        #expect(headers.first(named: "Accept") == nil)
    }
}
