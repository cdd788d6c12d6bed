import MockdCore

/// A place in a description: the file and a JSON pointer inside it (`api.yaml#/paths/~1pets`).
struct Location: Hashable, CustomStringConvertible {
    var file: String
    var pointer: String

    func appending(_ tokens: String...) -> Location {
        Location(file: file, pointer: pointer + tokens.map { "/" + pointerToken($0) }.joined())
    }

    var description: String { "#\(pointer.isEmpty ? "/" : pointer)" }
}

/// The description files read for one document: the document itself and every file its
/// `$ref`s name, each read once. References are resolved when something needs them, never by
/// expanding the whole document (recursive schemas are normal).
final class Documents {
    private(set) var files: [String: JSONValue] = [:]
    /// Files that could not be read, with why (reported once each).
    private(set) var failures: [String: String] = [:]
    /// Every path read, for the watcher.
    var paths: [String] { Array(files.keys) + Array(failures.keys) }

    /// Where the files `$ref`s name are read from.
    private let source: any FileSource

    init(root: String, value: JSONValue, files source: any FileSource) {
        self.source = source
        files[root] = value
    }

    func value(at location: Location) -> JSONValue? {
        guard let file = file(location.file) else { return nil }
        return file.at(pointer: location.pointer)
    }

    private func file(_ path: String) -> JSONValue? {
        if let value = files[path] { return value }
        if failures[path] != nil { return nil }
        do {
            let value = try DocumentReader.read(path: path, files: source)
            files[path] = value
            return value
        } catch {
            failures[path] = error.message
            return nil
        }
    }

    /// Where `reference` (a `$ref` found in `from`'s file) points.
    static func target(of reference: String, from: Location) -> Location {
        guard let hash = reference.firstIndex(of: "#") else {
            return Location(file: resolve(reference, against: from.file), pointer: "")
        }
        let filePart = String(reference[..<hash])
        let pointer = String(reference[reference.index(after: hash)...])
        return Location(file: filePart.isEmpty ? from.file : resolve(filePart, against: from.file), pointer: pointer)
    }

    private static func resolve(_ relative: String, against file: String) -> String {
        if relative.hasPrefix("/") { return relative }
        var directory = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        for part in relative.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = directory.last, last != "..", !last.isEmpty { directory.removeLast(); continue }
            directory.append(String(part))
        }
        let joined = directory.joined(separator: "/")
        return joined
    }

    /// Follows `$ref`s (a chain of them, at most `limit`) to a value that is not one.
    func dereference(_ value: JSONValue, at location: Location, limit: Int = 16) -> (JSONValue, Location)? {
        var current = (value, location)
        for _ in 0..<limit {
            guard let reference = current.0["$ref"]?.stringValue else { return current }
            let target = Self.target(of: reference, from: current.1)
            guard let next = self.value(at: target) else { return nil }
            current = (next, target)
        }
        return nil
    }
}
