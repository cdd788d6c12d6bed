import ArgumentParser
#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
import Logging
import MockdCore
import MockdDisk
import MockdProxy
import MockdServe

/// `mockd import traffic.har` (or `mockd import har traffic.har`): the default of `import`, so a
/// capture from Proxyman, Charles or a browser needs no format word.
struct ImportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract:
            "Mocks from a HAR file (Proxyman, Charles, Chrome, Safari, Firefox), written as --record writes them: mock_<path>_<method>.json files, and routes in <routes>/recorded.json for the rest; Chrome's WebSocket messages as mock_<path>_get.ws conversations. Never overwrites unless --force.",
        discussion: """
            Example: mockd import traffic.har --root MockData --dry-run
            """
    )

    @Argument(help: ArgumentHelp("The HAR file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Where mock files and recorded bodies go.", valueName: "dir"))
    var root = DataOptions.defaultRoot

    @Option(help: ArgumentHelp("Where recorded.json goes. [default: the routes folder beside the root, else ./routes]", valueName: "dir"))
    var routes: String?

    @Option(
        help: ArgumentHelp(
            "Write the mocks as this scenario's: files under <root>/scenarios/<name>/, routes with \"scenario\".", valueName: "name"))
    var scenario: String?

    @Option(
        help: ArgumentHelp(
            "Import the entries of this host (api.example.com, or with a port); repeatable or comma-separated. [default: the host with the most entries]",
            valueName: "host"))
    var host: [String] = []

    @Option(
        name: .customLong("record-headers"),
        help: ArgumentHelp(
            "More header names that make an answer a route keeping its headers, comma-separated (Location, ETag, Link, Set-Cookie, rate limits and X- headers always do).",
            valueName: "names"))
    var recordHeaders: [String] = []

    @Flag(help: "Print what would be written; write nothing.")
    var dryRun = false

    @Flag(help: "Several answers to the same request become a responses sequence, in order (default: the last one wins).")
    var sequence = false

    @Flag(help: "One mock per query string (default: one per method and path, whatever the query).")
    var query = false

    @Flag(help: "Replace mocks that already exist (atomically).")
    var force = false

    func validate() throws {
        if let scenario, scenario.isEmpty || scenario == "." || scenario == ".." || scenario.contains("/") {
            throw ValidationError("--scenario \(scenario): a scenario is one folder name under <root>/scenarios/")
        }
    }

    func run() throws {
        Signals.unblock()
        guard let data = FileManager.default.contents(atPath: file) else {
            FileHandleOutput.standardError("Error: \(file): cannot read it")
            throw ExitCode.failure
        }
        let routesFolder = RoutesFolder(given: routes, root: root).forWriting(in: DiskFiles())
        let recorder = Recorder(
            root: root, routesDirectory: routesFolder, overwrite: force, scenario: scenario,
            keptHeaders: ProxyOptions.names(recordHeaders), logger: Logger(label: "mockd.import"))
        // Mocks already served from any folder of the root count as existing, as for --record.
        if FileManager.default.fileExists(atPath: root) {
            let snapshot = MockDataLoader(files: DiskFiles(), root: root).load().snapshot
            recorder.findMocks(in: { snapshot })
        }
        var options = HARImport.Options()
        options.hosts = ProxyOptions.names(host)
        options.sequence = sequence
        options.query = query
        let report: HARImport.Report
        do {
            report = try HARImport(recorder: recorder, options: options).run(Array(data), dryRun: dryRun)
        } catch {
            FileHandleOutput.standardError("Error: \(file): \(error)")
            throw ExitCode.failure
        }
        for line in report.lines { print(line) }
        for line in report.skipped { print("skipped \(line)") }
        for error in report.errors { FileHandleOutput.standardError("error: \(error)") }
        print(summary(report))
        if !report.errors.isEmpty { throw ExitCode.failure }
    }

    func summary(_ report: HARImport.Report) -> String {
        var parts = [
            dryRun ? "\(report.written) would be written" : "\(report.written) written",
            "\(report.kept) already there" + (report.kept > 0 ? " (--force replaces them)" : ""),
        ]
        if !report.skipped.isEmpty { parts.append("\(report.skipped.count) skipped") }
        if !report.errors.isEmpty { parts.append(Counted.text(report.errors.count, "error")) }
        var line =
            "\(file): " + (report.hosts.isEmpty ? "no entries imported" : "entries of \(report.hosts.joined(separator: ", "))") + ": "
            + parts.joined(separator: ", ")
        if !report.otherHosts.isEmpty {
            let others = report.otherHosts.map { "\($0.host) (\($0.entries == 1 ? "1 entry" : "\($0.entries) entries"))" }.joined(
                separator: ", ")
            line += "; other hosts not imported: \(others); --host NAME imports them"
        }
        return line
    }
}
