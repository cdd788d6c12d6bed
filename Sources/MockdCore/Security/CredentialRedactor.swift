/// Hides credential values in journal entries, keeping the header names and the auth scheme,
/// so `GET /__mockd/requests` still shows *that* a client authenticated, and how.
package enum CredentialRedactor {
    package static let mask = "[redacted]"

    /// Whether a header carries a credential: `Authorization`, `Proxy-Authorization`,
    /// `Cookie`, and any name containing token, secret, password, api-key or apikey.
    private static func isCredential(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower == "authorization" || lower == "proxy-authorization" || lower == "cookie" { return true }
        return ["token", "secret", "password", "api-key", "apikey", "api_key"].contains { lower.contains($0) }
    }

    package static func redact(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        guard headers.contains(where: { isCredential($0.name) }) else { return headers }
        return headers.map { header in
            guard isCredential(header.name) else { return header }
            return HTTPHeader(header.name, redactedValue(header))
        }
    }

    /// `Bearer abc` → `Bearer [redacted]`; a value without a scheme is masked whole.
    static func redactedValue(_ header: HTTPHeader) -> String {
        let lower = header.name.lowercased()
        if lower == "authorization" || lower == "proxy-authorization",
            let space = header.value.firstIndex(of: " ")
        {
            return header.value[..<space] + " " + mask
        }
        return mask
    }
}
