/// The naming rule apps already use for bundled mock JSON:
/// `METHOD /a/b/c` is answered by `mock_a_b_c_<method>.json`.
package enum MockFileName {
    /// Methods whose lower-cased name may end a mock file name.
    package static let knownMethods: [String] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

    /// The file name for a request. `path` is the percent-decoded path without the query,
    /// as `URL.path` gives it; one trailing slash is ignored (`/api/users/` = `/api/users`).
    package static func forRequest(method: String, path: String) -> String {
        var path = path
        var method = method
        return path.withUTF8 { pathBytes in
            method.withUTF8 { methodBytes in
                let name = RequestName(path: pathBytes, method: methodBytes)
                return String(unsafeUninitializedCapacity: name.count) { buffer in
                    var index = 0
                    _ = name.forEachByte { byte in
                        buffer[index] = byte
                        index += 1
                        return true
                    }
                    return index
                }
            }
        }
    }

    /// A request's file name read where its path and method lie, byte by byte: `mock` + the
    /// path with `/` as `_` (one trailing `/` dropped) + `_` + the method in lower case +
    /// `.json`. The one statement of the rule: `forRequest` builds the name from it, and
    /// `MockFileTable` hashes and compares it without building it (this runs for every request).
    struct RequestName {
        let path: UnsafeBufferPointer<UInt8>
        let method: UnsafeBufferPointer<UInt8>
        let pathCount: Int

        init(path: UnsafeBufferPointer<UInt8>, method: UnsafeBufferPointer<UInt8>) {
            self.path = path
            self.method = method
            var pathCount = path.count
            if pathCount > 1, path[pathCount - 1] == UInt8(ascii: "/") { pathCount -= 1 }
            self.pathCount = pathCount
        }

        /// The name's length in bytes.
        var count: Int { 4 + pathCount + 1 + method.count + 5 }

        /// Calls `visit` with each byte of the name in order, until it returns false; false then.
        @inline(__always)
        func forEachByte(_ visit: (UInt8) -> Bool) -> Bool {
            for byte in "mock".utf8 where !visit(byte) { return false }
            for index in 0..<pathCount {
                let byte = path[index]
                if !visit(byte == UInt8(ascii: "/") ? UInt8(ascii: "_") : byte) { return false }
            }
            if !visit(UInt8(ascii: "_")) { return false }
            for byte in method where !visit((byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte) {
                return false
            }
            for byte in ".json".utf8 where !visit(byte) { return false }
            return true
        }
    }

    /// What a file name says about the requests it answers, or why no request can reach it.
    package enum Parsed: Equatable, Sendable {
        /// `method` upper-cased; `pathStem` is the part between `mock` and `_<method>`.
        case mock(method: String, pathStem: String)
        /// Not a mock name at all (a body file for routes, a README…): not served by the convention.
        case other
        /// Looks like a mock name but no request maps to it; the text says why.
        case unreachable(String)
    }

    /// The usual name (`mock_…_<method>.json`, method in lower case) in bytes, without
    /// String indexing: loading 10,000 files calls this 10,000 times. nil = take the slow path.
    static func parseCommonCase(_ fileName: String) -> Parsed? {
        // In place on the name's bytes, with the method found in a table, no copy and no
        // hashing: this runs for every file at load.
        let parsed = fileName.utf8.withContiguousStorageIfAvailable { bytes -> Parsed? in
            let count = bytes.count
            guard count > 10, bytes[4] == UInt8(ascii: "_"), bytes[count - 5] == UInt8(ascii: "."), bytes[count - 4] == UInt8(ascii: "j"),
                bytes[count - 3] == UInt8(ascii: "s"), bytes[count - 2] == UInt8(ascii: "o"), bytes[count - 1] == UInt8(ascii: "n"),
                let underscore = bytes[..<(count - 5)].lastIndex(of: UInt8(ascii: "_")), underscore > 4
            else { return nil }
            let method = bytes[(underscore + 1)..<(count - 5)]
            guard !method.isEmpty, method.count <= 15,
                method.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }),
                let upper = methodsByLowercaseName[String(decoding: method, as: UTF8.self)]  // a small string: no allocation
            else { return nil }
            return .mock(method: upper, pathStem: String(decoding: bytes[4..<underscore], as: UTF8.self))
        }
        return parsed ?? nil
    }

    /// `get` → `GET`, for every known method.
    private static let methodsByLowercaseName: [String: String] =
        Dictionary(uniqueKeysWithValues: knownMethods.map { ($0.lowercased(), $0) })

    /// Why a name that is a mock name but for the case of `mock` (`Mock_api_feed_get.json`) is not
    /// served; nil for any other name. (`parse` leaves such names alone: they are not mock names.)
    static func miscasedPrefix(_ fileName: String) -> String? {
        guard !fileName.hasPrefix("mock"), fileName.utf8.count > 5, fileName.prefix(5).lowercased() == "mock_",
            case .mock = parse("mock" + fileName.dropFirst(4))
        else { return nil }
        return "names are case-sensitive: it must start with 'mock_', not '\(fileName.prefix(5))'"
    }

    /// Statuses a file name may carry.
    static let fileStatuses = 200...599

    /// `mock_api_users_get.500.json` → (`mock_api_users_get.json`, 500): the same request, answered
    /// with that status (an error dataset made of files). The rule is unambiguous: a method has
    /// no dot, so `_get.500` never named a request before (it was reported as not a method), and
    /// the name looked up per request stays `mock_<path>_<method>.json`. nil for any other name.
    package static func splitStatus(_ fileName: String) -> (name: String, status: Int)? {
        let bytes = Array(fileName.utf8.suffix(9))
        // ".NNN.json"
        guard bytes.count == 9, bytes[0] == UInt8(ascii: "."), fileName.hasSuffix(".json"), fileName.hasPrefix("mock"),
            bytes[1...3].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        let status = Int(bytes[1] - 48) * 100 + Int(bytes[2] - 48) * 10 + Int(bytes[3] - 48)
        guard fileStatuses.contains(status) else { return nil }
        return (String(fileName.utf8.dropLast(9))! + ".json", status)
    }

    /// Classifies a file name found under the root.
    package static func parse(_ fileName: String) -> Parsed {
        guard fileName.hasPrefix("mock") else { return .other }
        if let fast = parseCommonCase(fileName) { return fast }
        guard fileName.hasSuffix(".json") else {
            guard fileName.hasPrefix("mock_") else { return .other }
            let dot = fileName.lastIndex(of: ".").map { String(fileName[$0...]) }
            return .unreachable((dot.map { "extension \($0): " } ?? "") + "only .json files are served; expected mock_<path>_<method>.json")
        }
        let stem = fileName.dropLast(".json".count)
        guard let underscore = stem.lastIndex(of: "_") else {
            return .unreachable("no _<method> before .json; expected mock_<path>_<method>.json")
        }
        let methodPart = String(stem[stem.index(after: underscore)...])
        let pathStem = String(stem[stem.index(stem.startIndex, offsetBy: 4)..<underscore])
        if !knownMethods.contains(methodPart.uppercased()) {
            return .unreachable(
                "'\(methodPart)' is not an HTTP method; expected mock_<path>_<method>.json with get, post, put, patch, delete…")
        }
        if methodPart != methodPart.lowercased() {
            return .unreachable("the method must be lower case: '\(methodPart.lowercased())', not '\(methodPart)'")
        }
        if !pathStem.hasPrefix("_") {
            if pathStem.isEmpty {
                return .unreachable("no path: a request path is at least '/', so the name is at least mock__\(methodPart).json")
            }
            return .unreachable("after 'mock' comes the path, which starts with '/', so the name must start with 'mock_'")
        }
        return .mock(method: methodPart.uppercased(), pathStem: pathStem)
    }
}
