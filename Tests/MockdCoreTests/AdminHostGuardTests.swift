import MockdCore
import Testing

@Suite("Admin host guard and credential redaction")
struct AdminHostGuardTests {
    @Test func hosts() {
        let guardian = AdminHostGuard(allowedHosts: ["api.example.com"])
        for host in [
            "127.0.0.1", "127.0.0.1:1", "localhost", "LOCALHOST:8080", "[::1]", "[::1]:80", "[fe80::1%25eth0]:80",
            "192.168.0.9", "mockd", "mockd:8080", "x.localhost", "api.example.com", "api.example.com:443", "api.example.com.",
        ] {
            #expect(guardian.allows(host: host), "\(host)")
        }
        #expect(!guardian.allows(host: nil), "HTTP/1.0 without Host names no allowed host")
        for host in ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "", "1.2.3", "999.1.1.1", "sub.api.example.com"] {
            #expect(!guardian.allows(host: host), "\(host)")
        }
    }

    @Test func redaction() {
        let headers = [
            HTTPHeader("authorization", "Bearer abc"), HTTPHeader("Authorization", "opaque"), HTTPHeader("X-My-Password", "p"),
            HTTPHeader("Accept", "*/*"),
        ]
        #expect(
            CredentialRedactor.redact(headers) == [
                HTTPHeader("authorization", "Bearer [redacted]"), HTTPHeader("Authorization", "[redacted]"),
                HTTPHeader("X-My-Password", "[redacted]"), HTTPHeader("Accept", "*/*"),
            ])
        #expect(CredentialRedactor.redact([HTTPHeader("Accept", "a")]) == [HTTPHeader("Accept", "a")])
    }
}
