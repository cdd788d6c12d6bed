import MockdCore
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `mockd check`: the document's structure against the OpenAPI specification, by OpenAPIKit
/// (3.0 documents decoded with OpenAPIKit30 and converted to 3.1 with OpenAPIKitCompat, then
/// validated). Only for `check`: serving reads the tree directly, which is much faster on large
/// documents and does not stop at constructs mockd can serve anyway. Its findings are warnings.
enum StructureCheck {
    static func problems(_ root: JSONValue, file: String, openAPI30: Bool) -> [Diagnostic] {
        let data = Data(root.serialized.utf8)
        let document: OpenAPIKit.OpenAPI.Document
        do {
            if openAPI30 {
                document = try JSONDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: data).convert(to: .v3_1_0)
            } else {
                document = try JSONDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: data)
            }
        } catch {
            let readable = OpenAPIKit.OpenAPI.Error(from: error)
            return [
                Diagnostic(.warning, file: file, location: pointer(readable.codingPath), "OpenAPIKit: \(readable.localizedDescription)")
            ]
        }
        do {
            try document.validate(strict: false)
        } catch let collection as OpenAPIKit.ValidationErrorCollection {
            return collection.values.map { Diagnostic(.warning, file: file, location: pointer($0.codingPath), "OpenAPIKit: \($0.reason)") }
        } catch {
            return [Diagnostic(.warning, file: file, "OpenAPIKit: \(error)")]
        }
        return []
    }

    /// A coding path as a JSON pointer: `#/paths/~1pets/get`.
    static func pointer(_ path: [any CodingKey]) -> String {
        "#/" + path.map { $0.intValue.map(String.init) ?? pointerToken($0.stringValue) }.joined(separator: "/")
    }
}
