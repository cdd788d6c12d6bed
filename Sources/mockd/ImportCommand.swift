import ArgumentParser
#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import MockdCore
import MockdDisk
import MockdOpenAPI
import MockdServe
import MockdSystem

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write mocks from another description, as an editable starting point.",
        subcommands: [ImportHARCommand.self, ImportOpenAPICommand.self],
        // `mockd import traffic.har` reads best: the format word is needed for OpenAPI only.
        defaultSubcommand: ImportHARCommand.self
    )

    /// `mockd import collection.json`: a Postman collection is imported as `mockd import postman
    /// collection.json` would be (the format word is not needed); nil for anything else.
    static func collectionArguments(_ arguments: [String]) -> [String]? {
        guard arguments.first == "import", let file = arguments.dropFirst().first, !file.hasPrefix("-"),
            !file.lowercased().hasSuffix(".har"),
            !configuration.subcommands.contains(where: { $0.configuration.commandName == file || $0.configuration.aliases.contains(file) }),
            OpenAPIImport.isPostmanCollection(path: file, files: DiskFiles())
        else { return nil }
        return ["import", "postman"] + arguments.dropFirst()
    }

    /// A format mockd does not import (`mockd import postman x.json --root a`) would be read as
    /// a HAR file named `postman` with an extra argument: checked before parsing, to say what it
    /// imports. A `.har` file is the default subcommand's argument.
    static func unknownFormat(in arguments: [String]) -> String? {
        guard arguments.first == "import", let format = arguments.dropFirst().first, !format.hasPrefix("-"),
            !format.lowercased().hasSuffix(".har"),
            !configuration.subcommands.contains(where: {
                $0.configuration.commandName == format || $0.configuration.aliases.contains(format)
            })
        else { return nil }
        return
            "mockd import \(format): mockd imports HAR files (mockd import FILE.har, or mockd import har FILE), Postman collections (mockd import FILE.json) and OpenAPI documents (OpenAPI 3.0, 3.1, Swagger 2.0: mockd import openapi FILE [--root DIR] [--routes DIR])"
    }
}

struct ImportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract:
            "Convention files for fixed-path operations, route-table entries for the rest (templated paths, other statuses, named examples as scenarios). Never overwrites.",
        discussion:
            "A Postman collection (v2.0, v2.1) is read the same way: its saved examples are the answers. `mockd import collection.json` finds it without the format word.",
        aliases: ["postman"]
    )

    @Argument(help: ArgumentHelp("The OpenAPI document (3.0, 3.1, Swagger 2.0; YAML or JSON) or Postman collection.", valueName: "file"))
    var document: String

    @Option(help: ArgumentHelp("Where the convention files go.", valueName: "dir"))
    var root = DataOptions.defaultRoot

    @Option(help: ArgumentHelp("Where the route table goes (openapi-<document>.json, postman-<collection>.json).", valueName: "dir"))
    var routes = "routes"

    @Flag(help: "Print what would be written; write nothing.")
    var dryRun = false

    func run() throws {
        Signals.unblock()
        try DescriptionImport(document: document, root: root, routes: routes, dryRun: dryRun).run()
    }
}

/// Writes what `OpenAPIImport` plans from a document or collection: each file atomically and
/// never over an existing one (named, and counted as kept), or with `dryRun` only says what it would write.
struct DescriptionImport {
    var document: String
    var root: String
    var routes: String
    var dryRun: Bool

    func run() throws {
        let result = MockDataLoader(
            files: DiskFiles(), root: "/nonexistent-mockd-import-root", operationSources: [OpenAPIDocument(path: document)]
        ).load()
        for diagnostic in result.diagnostics { FileHandleOutput.standardError(diagnostic.description) }
        guard let snapshot = result.snapshot else { throw ExitCode.failure }
        let plan = OpenAPIImport.plan(snapshot.operations)
        var wrote = 0, kept = 0
        for file in plan.files {
            if try write(file.bytes, to: root + "/" + file.name) { wrote += 1 } else { kept += 1 }
        }
        if !plan.routes.isEmpty {
            let kind = snapshot.operations.documents.first?.name.split(separator: " ").first.map(String.init) ?? "openapi"
            let stem = String(document.split(separator: "/").last ?? "openapi").split(separator: ".").first.map(String.init) ?? "openapi"
            let table = JSONValue.object([("routes", .array(plan.routes))])
            if try write(Array((table.prettyPrinted + "\n").utf8), to: "\(routes)/\(kind)-\(stem).json") { wrote += 1 } else { kept += 1 }
        }
        print(
            "\(wrote) \(dryRun ? "would be written" : "written"), \(kept) already there (not overwritten); \(Counted.text(plan.files.count, "file")), \(Counted.text(plan.routes.count, "route"))"
        )
    }

    /// Atomic (a temp file, then a rename) and never over an existing file: false when one is there.
    func write(_ bytes: [UInt8], to path: String) throws -> Bool {
        if FileManager.default.fileExists(atPath: path) {
            print("exists, not overwritten: \(path)")
            return false
        }
        if dryRun {
            print("would write \(path)")
            return true
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(bytes, to: path, replace: false)
        } catch  where error.alreadyExists {
            print("exists, not overwritten: \(path)")
            return false
        } catch {
            FileHandleOutput.standardError("Error: \(path): \(error.reason)")
            throw ExitCode.failure
        }
        print("wrote \(path)")
        return true
    }
}
