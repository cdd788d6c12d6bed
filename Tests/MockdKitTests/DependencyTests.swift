import Foundation
import Testing

/// MockdKit must build wherever an XCUITest target or a package's tests run: nothing but
/// Foundation (FoundationNetworking on Linux), and no dependency in the manifest.
@Suite("MockdKit depends on Foundation alone")
struct DependencyTests {
    static let allowed: Set<String> = ["Foundation", "FoundationNetworking"]

    @Test("every import in Sources/MockdKit is Foundation or FoundationNetworking")
    func imports() throws {
        let folder = packageFolder.appendingPathComponent("Sources/MockdKit")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        var imported: Set<String> = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                // `import X`, `public import X`, `@preconcurrency import X`, `import struct X.Y`…
                let words = line.split(separator: " ").map(String.init)
                guard let index = words.firstIndex(of: "import"),
                    words[..<index].allSatisfy({
                        $0.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains($0)
                    }),
                    index + 1 < words.count
                else { continue }
                var module = words[index + 1]
                if ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(module), index + 2 < words.count {
                    module = words[index + 2]
                }
                let name = String(module.split(separator: ".").first ?? "")
                imported.insert(name)
                #expect(Self.allowed.contains(name), "\(file) imports \(name): \(line)")
            }
        }
        #expect(imported.contains("Foundation"))
    }

    @Test("the MockdKit target in Package.swift has no dependencies and no unsafe flags")
    func manifest() throws {
        let manifest = try String(contentsOf: packageFolder.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try #require(Self.call(named: #".target(name: "MockdKit""#, in: manifest), "no MockdKit target in Package.swift")
        #expect(!declaration.contains("dependencies"), "\(declaration)")
        #expect(!declaration.contains("unsafeFlags"), "\(declaration)")
        #expect(!declaration.contains("linkerSettings"), "\(declaration)")
        #expect(manifest.contains(#".library(name: "MockdKit", targets: ["MockdKit"])"#))
        // The settings it may take: upcoming features only.
        if declaration.contains("settings") {
            let settings = try #require(Self.call(named: "let settings: [SwiftSetting] = [", in: manifest, open: "[", close: "]"))
            #expect(!settings.contains("unsafeFlags"), "\(settings)")
        }
    }

    /// The text from `start` to the bracket that closes the one it opens.
    static func call(named start: String, in text: String, open: Character = "(", close: Character = ")") -> String? {
        guard let range = text.range(of: start) else { return nil }
        var depth = 0
        var index = text.index(
            range.lowerBound, offsetBy: start.firstIndex(of: open).map { start.distance(from: start.startIndex, to: $0) } ?? 0)
        while index < text.endIndex {
            if text[index] == open { depth += 1 }
            if text[index] == close {
                depth -= 1
                if depth == 0 { return String(text[range.lowerBound...index]) }
            }
            index = text.index(after: index)
        }
        return nil
    }
}
