import ArgumentParser
#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import MockdCore
import MockdDisk
import MockdOpenAPI
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the mocks are: shared by `serve`, `check` and `routes`. Each option falls back to
/// its `MOCKD_*` environment variable; a flag wins.
struct DataOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The MockData folder: mock_<path>_<method>.json files, bodies, scenarios/<name>/ overlays. [env: MOCKD_ROOT; default: MockData]",
            valueName: "dir"))
    var root: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The folder of JSON route tables. [env: MOCKD_ROUTES; default: the routes folder beside the root (<root>/../routes), else ./routes, when one exists]",
            valueName: "dir"))
    var routes: String?

    @Flag(name: .customLong("no-routes"), help: "No route tables, not even a default routes folder. [env: MOCKD_NO_ROUTES]")
    var noRoutes = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "An OpenAPI document (3.0, 3.1, Swagger 2.0; YAML or JSON) to serve after files and routes; repeatable. [env: MOCKD_OPENAPI, comma-separated]",
            valueName: "file"))
    var openapi: [String] = []

    @Option(
        name: .customLong("openapi-validate"),
        help: ArgumentHelp(
            "Requests that do not match the document: enforce (answer 4xx), warn (answer, log the violations), off. [env: MOCKD_OPENAPI_VALIDATE; default: enforce]",
            valueName: "mode"))
    var openapiValidate: String?

    @Flag(
        name: .customLong("openapi-query-overrides"),
        help:
            "Let __code, __example and __dynamic query parameters act as the Prefer header does (Prism's overrides). [env: MOCKD_OPENAPI_QUERY_OVERRIDES=1]"
    )
    var openapiQueryOverrides = false

    @Option(
        name: .customLong("stream-interval"),
        help: ArgumentHelp(
            "Milliseconds between the events of a mock_<path>_<method>.sse file. [env: MOCKD_STREAM_INTERVAL; default: 50]", valueName: "ms"
        ))
    var streamInterval: Int?

    /// What `--root`, `--routes` and `--openapi` say to load.
    var loader: MockDataLoader { loader(checkExamples: false) }

    /// `checkExamples`: `mockd check` also warns about examples that violate their own schema.
    func loader(checkExamples: Bool) -> MockDataLoader {
        var loader = MockDataLoader(
            files: DiskFiles(), root: resolvedRoot, routesFolder: routesFolder,
            operationSources: resolvedOpenAPI.map {
                var document = OpenAPIDocument(path: $0, validation: resolvedValidation, checkExamples: checkExamples)
                document.queryOverrides = openapiQueryOverrides || Environment.string("MOCKD_OPENAPI_QUERY_OVERRIDES") == "1"
                return document
            })
        // Checked in validate(): a whole number of milliseconds, 0-600,000.
        loader.streamIntervalMilliseconds = streamInterval ?? (try? Environment.int("MOCKD_STREAM_INTERVAL")) ?? 50
        return loader
    }

    var resolvedOpenAPI: [String] {
        openapi.isEmpty ? (Environment.string("MOCKD_OPENAPI")?.split(separator: ",").map(String.init) ?? []) : openapi
    }

    var resolvedValidation: OperationTable.Validation {
        (openapiValidate ?? Environment.string("MOCKD_OPENAPI_VALIDATE")).flatMap(OperationTable.Validation.init(rawValue:)) ?? .enforce
    }

    func validate() throws {
        if routes?.isEmpty == true {
            throw ValidationError("--routes '': no folder named; give --routes DIR, or --no-routes for no route tables")
        }
        let none = try resolvedNoRoutes
        if routes != nil, none {
            throw ValidationError("--routes \(routes ?? "") and --no-routes: give one")
        }
        if let interval = try streamInterval ?? Environment.int("MOCKD_STREAM_INTERVAL"), !(0...600_000).contains(interval) {
            throw ValidationError("--stream-interval \(interval): expected 0-600000 milliseconds")
        }
        if let mode = openapiValidate ?? Environment.string("MOCKD_OPENAPI_VALIDATE"), OperationTable.Validation(rawValue: mode) == nil {
            throw ValidationError("--openapi-validate \(mode): expected enforce, warn or off")
        }
    }

    var resolvedRoot: String { root ?? Environment.string("MOCKD_ROOT") ?? "MockData" }

    var routesFolder: RoutesFolder {
        // A usage error when MOCKD_NO_ROUTES is not a boolean was thrown by validate().
        if (try? resolvedNoRoutes) == true { return .none }
        return RoutesFolder(given: routes ?? Environment.string("MOCKD_ROUTES"), root: resolvedRoot)
    }

    /// `--no-routes`, else `MOCKD_NO_ROUTES` (a `--routes` flag wins over the variable).
    var resolvedNoRoutes: Bool {
        get throws {
            if noRoutes { return true }
            return routes == nil ? try Environment.bool("MOCKD_NO_ROUTES") ?? false : false
        }
    }
}

enum Environment {
    /// `max-body-bytes` → `MOCKD_MAX_BODY_BYTES`
    static func variable(for option: String) -> String {
        "MOCKD_" + option.uppercased().replacing("-", with: "_")
    }

    static func string(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// An integer from the environment; a value that is not one is a usage error, not ignored.
    static func int(_ name: String) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else { throw ValidationError("\(name)=\(text): expected a whole number") }
        return value
    }

    static func bool(_ name: String) throws -> Bool? {
        guard let text = string(name)?.lowercased() else { return nil }
        switch text {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ValidationError("\(name)=\(text): expected true or false")
        }
    }
}
