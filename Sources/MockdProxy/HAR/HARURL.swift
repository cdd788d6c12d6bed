import MockdCore

/// An entry's absolute URL split the way mockd's HTTP adapter splits a request target: the
/// percent-decoded path, the query as sent and its decoded arguments, and the host the entry
/// went to (lower case, with the port only when it is not the scheme's default). A WebSocket's
/// `ws://` and `wss://` URLs (Chrome's upgrade entries) split as `http://` and `https://` do.
struct HARURL {
    var host: String
    var path: String
    /// The path as sent when it holds a `%` (as `MockRequest.rawPath`).
    var rawPath: String?
    var rawQuery: String
    var query: [(name: String, value: String?)]

    init?(_ url: String) {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        let scheme = url[..<colon].lowercased()
        guard ["http", "https", "ws", "wss"].contains(scheme) else { return nil }
        let secure = scheme == "https" || scheme == "wss"
        var rest = url[url.index(colon, offsetBy: 3)...]
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority.lowercased()
        if host.hasSuffix(secure ? ":443" : ":80") { host.removeLast(secure ? 4 : 3) }
        guard !host.isEmpty else { return nil }
        self.host = host
        let target = rest[authorityEnd...]
        let queryStart = target.firstIndex(of: "?")
        let sentPath = target[..<(queryStart ?? target.endIndex)]
        let raw = sentPath.isEmpty ? "/" : String(sentPath)
        guard let decoded = Self.percentDecoded(raw, plusIsSpace: false) else { return nil }
        path = decoded
        rawPath = raw.contains("%") ? raw : nil
        rawQuery = queryStart.map { String(target[target.index(after: $0)...]) } ?? ""
        var arguments: [(name: String, value: String?)] = []
        for pair in rawQuery.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.percentDecoded(String(parts[0]), plusIsSpace: true) else { return nil }
            if parts.count == 1 {
                arguments.append((name, nil))
            } else {
                guard let value = Self.percentDecoded(String(parts[1]), plusIsSpace: true) else { return nil }
                arguments.append((name, value))
            }
        }
        query = arguments
    }

    /// `%XX` escapes decoded (and `+` as a space in a query, as form encoding has it); nil for a
    /// `%` without two hex digits or a `%00`, which mockd refuses in a request too.
    static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String? {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
                else { return nil }
                let value = high << 4 | low
                guard value != 0 else { return nil }
                out.append(value)
                index += 3
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
