import MockdCore

/// What a proxy passes on and what it keeps to itself (RFC 9110 §7.6.1), and how a decoded
/// path goes back on the wire.
enum ForwardingRules {
    /// Hop-by-hop fields: they describe one connection, never the message, so they are not forwarded either way.
    private static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection",
        "te", "trailer", "transfer-encoding", "upgrade",
    ]

    /// Request fields mockd does not pass upstream besides hop-by-hop ones: its own controls,
    /// and fields the HTTP client sets itself (`Host` from the upstream URL, `Content-Length`
    /// from the body; `Expect`: the body has already been received in full). `Accept-Encoding`
    /// is forwarded as the client sent it, and the answer relayed as encoded — except when
    /// recording (see `forwardedRequestHeaders(_:decodingAnswer:)`).
    static let notForwarded: Set<String> = [
        "host", "content-length", "expect", "x-mock-scenario", "x-mock-session",
    ]

    /// Response fields not relayed besides hop-by-hop ones: libmicrohttpd writes `Content-Length`
    /// from the body it sends, and mockd adds its own `X-Mockd-Source`.
    private static let notRelayed: Set<String> = ["content-length", "x-mockd-source"]

    /// Content codings the HTTP client decodes when asked to (`decodingAnswer`); a response that had one then reaches mockd decoded.
    private static let decodedCodings: Set<String> = ["gzip", "x-gzip", "deflate", "br", "zstd", "identity"]

    /// Names listed in `Connection` (`Connection: close, X-Foo` makes `X-Foo` hop-by-hop too), lower-cased.
    private static func connectionOptions(in headers: [HTTPHeader]) -> Set<String> {
        var names: Set<String> = []
        for header in headers where header.name.lowercased() == "connection" {
            for option in header.value.split(separator: ",") {
                let name = option.trimming(.whitespace).lowercased()
                if !name.isEmpty { names.insert(name) }
            }
        }
        return names
    }

    /// The request headers to send upstream, same-name fields joined into one (`Cookie` with `; `,
    /// others with `, `), in first-seen order. With `decodingAnswer` (recording: a mock is saved
    /// decoded) the client's `Accept-Encoding` is dropped too: the HTTP client sends its own and decodes.
    static func forwardedRequestHeaders(_ headers: [HTTPHeader], decodingAnswer: Bool = false) -> [HTTPHeader] {
        var dropped = hopByHop.union(notForwarded).union(connectionOptions(in: headers))
        if decodingAnswer { dropped.insert("accept-encoding") }
        var result: [HTTPHeader] = []
        var position: [String: Int] = [:]
        for header in headers {
            let key = header.name.lowercased()
            guard !dropped.contains(key), ASCII.isToken(header.name),
                !header.value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            else { continue }
            if let at = position[key] {
                result[at].value += (key == "cookie" ? "; " : ", ") + header.value
            } else {
                position[key] = result.count
                result.append(header)
            }
        }
        return result
    }

    /// The upstream's response headers as relayed, in the upstream's order (repeated fields such
    /// as `Set-Cookie` stay separate): hop-by-hop ones, those named in its `Connection`,
    /// `Content-Length` and `X-Mockd-Source` removed, and `Content-Encoding` too when the body
    /// was decoded on the way (`bodyDecoded`). An encoded body relayed as is keeps its
    /// `Content-Encoding`, and libmicrohttpd's `Content-Length` is then the upstream's.
    static func relayedResponseHeaders(_ headers: [HTTPHeader], bodyDecoded: Bool = false) -> [HTTPHeader] {
        let dropped = hopByHop.union(notRelayed).union(connectionOptions(in: headers))
        return headers.filter { header in
            let key = header.name.lowercased()
            if dropped.contains(key) { return false }
            if bodyDecoded, key == "content-encoding" {
                let codings = header.value.split(separator: ",").map { $0.trimming(.whitespace).lowercased() }
                return !codings.allSatisfy { decodedCodings.contains($0) }
            }
            return true
        }
    }

    /// A header line of an upstream's answer (`Name: value`) as a field, its value trimmed; nil
    /// without a colon.
    static func headerField(_ line: Substring) -> HTTPHeader? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return HTTPHeader(String(line[..<colon]), String(line[line.index(after: colon)...].trimming(.whitespace)))
    }

    /// A percent-decoded path (as `MockRequest.path` holds it) encoded again for a URL: every
    /// byte outside RFC 3986 `pchar` and `/` becomes `%XX` (so `%`, `?`, `#` and spaces in a
    /// segment survive the trip). A `/` cannot be told from a decoded `%2F` and stays `/`.
    static func encodePath(_ path: String) -> String {
        var out = path.hasPrefix("/") ? "" : "/"
        out.reserveCapacity(path.utf8.count + 8)
        for byte in path.utf8 {
            if isPathByte(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += percent(byte)
            }
        }
        return out
    }

    /// The raw query as sent, with any byte a URL cannot hold (space, `"`, `<`, `|`, non-ASCII,
    /// a `%` not followed by two hex digits…) percent-encoded; a valid query comes out unchanged.
    static func sanitizeQuery(_ query: String) -> String {
        let bytes = Array(query.utf8)
        var out = ""
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                if index + 2 < bytes.count, ASCII.isHexDigit(bytes[index + 1]), ASCII.isHexDigit(bytes[index + 2]) {
                    out += "%"
                } else {
                    out += "%25"
                }
            } else if isPathByte(byte) || byte == UInt8(ascii: "?") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += percent(byte)
            }
            index += 1
        }
        return out
    }

    // MARK: - Helpers

    /// RFC 3986 `pchar` (unreserved, sub-delims, `:`, `@`) plus `/`.
    static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    static func percent(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        var out = "%"
        out.unicodeScalars.append(digits[Int(byte >> 4)])
        out.unicodeScalars.append(digits[Int(byte & 0x0F)])
        return out
    }
}
