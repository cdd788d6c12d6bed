import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
import Foundation
#endif
import MockdCore
import MockdOpenAPI

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write mocks from another description, as an editable starting point.",
        subcommands: [ImportHARCommand.self, ImportOpenAPICommand.self],
        // `mockd import traffic.har` reads best: the format word is needed for OpenAPI only.
        defaultSubcommand: ImportHARCommand.self
    )

    /// A format mockd does not import (`mockd import postman x.json --root a`) would be read as
    /// a HAR file named `postman` with an extra argument: checked before parsing, to say what it
    /// imports. A `.har` file is the default subcommand's argument.
    static func unknownFormat(in arguments: [String]) -> String? {
        guard arguments.first == "import", let format = arguments.dropFirst().first, !format.hasPrefix("-"),
              !format.lowercased().hasSuffix(".har"),
              !configuration.subcommands.contains(where: { $0.configuration.commandName == format }) else { return nil }
        return "mockd import \(format): mockd imports HAR files (mockd import FILE.har, or mockd import har FILE) and OpenAPI documents (OpenAPI 3.0, 3.1, Swagger 2.0: mockd import openapi FILE [--root DIR] [--routes DIR])"
    }
}

struct ImportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Convention files for fixed-path operations, route-table entries for the rest (templated paths, other statuses, named examples as scenarios). Never overwrites."
    )

    @Argument(help: ArgumentHelp("The OpenAPI document (3.0, 3.1, Swagger 2.0; YAML or JSON).", valueName: "file"))
    var document: String

    @Option(help: ArgumentHelp("Where the convention files go.", valueName: "dir"))
    var root = "MockData"

    @Option(help: ArgumentHelp("Where the route table goes (openapi-<document>.json).", valueName: "dir"))
    var routes = "routes"

    func run() throws {
        Signals.unblock()
        let result = MockDataLoader(root: "/nonexistent-mockd-import-root", operationSources: [OpenAPIDocument(path: document)]).load()
        for diagnostic in result.diagnostics { FileHandleOutput.standardError(diagnostic.description) }
        guard let snapshot = result.snapshot else { throw ExitCode.failure }
        let plan = OpenAPIImport.plan(snapshot.operations)
        var wrote = 0, kept = 0
        for file in plan.files {
            if try write(file.bytes, to: root + "/" + file.name) { wrote += 1 } else { kept += 1 }
        }
        if !plan.routes.isEmpty {
            let stem = String(document.split(separator: "/").last ?? "openapi").split(separator: ".").first.map(String.init) ?? "openapi"
            let table = JSONValue.object([("routes", .array(plan.routes))])
            if try write(Array((table.prettyPrinted + "\n").utf8), to: "\(routes)/openapi-\(stem).json") { wrote += 1 } else { kept += 1 }
        }
        print("\(wrote) written, \(kept) already there (not overwritten); \(CheckCommand.count(plan.files.count, "file")), \(CheckCommand.count(plan.routes.count, "route"))")
    }

    /// Atomic (a temp file, then a rename) and never over an existing file: false when one is there.
    func write(_ bytes: [UInt8], to path: String) throws -> Bool {
        if FileManager.default.fileExists(atPath: path) {
            print("exists, not overwritten: \(path)")
            return false
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        print("wrote \(path)")
        return true
    }
}
