import MockdCore
import Yams
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Adds the YAML line to diagnostics that name a JSON pointer (`#/paths/~1pets/get (line 12)`).
/// Done only when there are problems, by reading the file again: a good load pays nothing.
enum LineFinder {
    static func addLines(to diagnostics: [Diagnostic], files: any FileSource) -> [Diagnostic] {
        var trees: [String: Node?] = [:]
        return diagnostics.map { diagnostic in
            guard let location = diagnostic.location, location.hasPrefix("#/") else { return diagnostic }
            if trees[diagnostic.file] == nil { trees[diagnostic.file] = .some(tree(diagnostic.file, files: files)) }
            guard case .some(.some(let root)) = trees[diagnostic.file], let line = line(of: String(location.dropFirst()), in: root) else {
                return diagnostic
            }
            var result = diagnostic
            result.location = "\(location) (line \(line))"
            return result
        }
    }

    private static func tree(_ path: String, files: any FileSource) -> Node? {
        guard let bytes = try? files.read(path).array, bytes.first != UInt8(ascii: "{") else { return nil }
        return try? Yams.compose(yaml: String(decoding: bytes, as: UTF8.self))
    }

    static func line(of pointer: String, in root: Node) -> Int? {
        var node = root
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let token: String = String(raw).replacing("~1", with: "/").replacing("~0", with: "~")
            switch node {
            case .mapping(let mapping):
                guard let next = mapping.first(where: { $0.key.string == token })?.value else { return node.mark?.line }
                node = next
            case .sequence(let sequence):
                guard let index = Int(token), sequence.indices.contains(index) else { return node.mark?.line }
                node = sequence[index]
            default:
                return node.mark?.line
            }
        }
        return node.mark?.line
    }
}
