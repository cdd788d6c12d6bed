import MockdCore

/// The names and paths the recorder writes: safe file names, body file names, path patterns.
extension Recorder {
    /// One trailing slash ignored, as the file naming rule does.
    static func normalized(_ path: String) -> String {
        var path = path.isEmpty ? "/" : path
        if path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// A single path component that cannot climb out of its folder.
    static func isSafeFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0") && name.utf8.count <= 255
    }

    /// `<method>_<path words>_<hash>.<extension>`: ASCII letters, digits, `-`, `.` and `_` only, at most
    /// ~100 bytes, never starting with `mock` (the loader would take it for a mock name) or a dot.
    /// The hash of the exact method and path keeps two paths that read alike apart.
    static func bodyFileName(method: String, path: String, extension: String = "body") -> String {
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
                || byte == 0x2E
        }
        let methodPart = String(decoding: method.lowercased().utf8.filter { isWordByte($0) && $0 != 0x2E && $0 != 0x2D }, as: UTF8.self)
        var words: [UInt8] = []
        for byte in path.utf8 {
            if isWordByte(byte) {
                words.append(byte)
            } else if words.last != UInt8(ascii: "_") {
                words.append(UInt8(ascii: "_"))
            }
        }
        var pathPart = String(decoding: words.prefix(80), as: UTF8.self)
        while let first = pathPart.first, first == "_" || first == "." { pathPart.removeFirst() }
        while let last = pathPart.last, last == "_" || last == "." { pathPart.removeLast() }
        var hash: UInt32 = 2_166_136_261
        for byte in (method + " " + path).utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        var name =
            (methodPart.isEmpty ? "request" : methodPart) + (pathPart.isEmpty ? "" : "_" + pathPart)
            + "_" + String(repeating: "0", count: 8 - hex.count) + hex + "." + `extension`
        if name.lowercased().hasPrefix("mock") { name = "r_" + name }
        return name
    }

    /// A path a route's `path` would read as a pattern (`:name`, `*`, `**` segments) needs `pathPattern`.
    static func needsPattern(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0.hasPrefix(":") || $0 == "*" || $0 == "**" }
    }

    /// An anchored regular expression matching exactly `path`.
    static func pattern(for path: String) -> String {
        var out = "^"
        for character in path {
            if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out + "$"
    }

    /// The extension a body of this Content-Type is saved under, so the file is what it says and
    /// is served with its type by a route without headers; `body` for a type not known here.
    static func fileExtension(for contentType: String?) -> String {
        guard let contentType else { return "body" }
        let media = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimming(.whitespace).lowercased() } ?? ""
        if isJSONMediaType(media) { return "json" }
        return knownExtensions[media] ?? "body"
    }

    static let knownExtensions: [String: String] = [
        "text/plain": "txt", "text/html": "html", "text/css": "css", "text/csv": "csv", "text/xml": "xml",
        "application/xml": "xml", "text/javascript": "js", "application/javascript": "js", "application/pdf": "pdf",
        "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg",
        "image/x-icon": "ico", "image/vnd.microsoft.icon": "ico", "image/avif": "avif", "image/heic": "heic",
        "application/zip": "zip", "video/mp4": "mp4", "audio/mpeg": "mp3", "font/woff2": "woff2", "font/woff": "woff",
        "application/octet-stream": "bin",
    ]
}
