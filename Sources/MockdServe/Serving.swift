import Logging
package import MockdCore
import MockdDisk
import MockdSystem
import MockdHTTP
import MockdProxy
#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mockd serve` from start to exit, one step per function, in the order they run: logging,
/// the configuration, the upstream, saved resource state, the server, the watcher, then signals
/// until SIGTERM or SIGINT. The command line hands it the settings and the loader its options
/// made; nothing here reads an option or a MOCKD_* variable.
package enum Serving {
    package static func run(_ settings: ServeSettings, loader: MockDataLoader) throws(ServeFailure) {
        // Signals were blocked in Mockd.main, before any thread existed: libmicrohttpd's
        // threads inherit the blocked set.
        Signals.raiseOpenFileLimit()
        let sink = LogSink()
        let logger = startLogging(settings, sink: sink)
        let snapshot = try loadConfiguration(loader, settings: settings, sink: sink, logger: logger)
        let (missHandler, recorder) = upstream(settings, loader: loader, logger: logger)
        let stateWriter = try settings.stateDir.map { (folder) throws(ServeFailure) in
            try ResourceStateDirectory.prepare(folder, loader: loader)
            return ResourceStateWriter(folder: folder, logger: logger)
        }
        let runtime = RuntimeState(startupScenario: settings.scenario, resourceSaving: stateWriter)
        if let stateWriter { try restore(snapshot, with: stateWriter, into: runtime, logger: logger) }

        let systemd = SystemdNotifier()
        let reloader = Reloader(logger: logger, systemd: systemd) { loader.load() }
        // Access lines straight into the sink, in the log's format: the logger has no metadata of
        // its own that they would leave out.
        let server = HTTPServer(
            configuration: settings.server, snapshot: snapshot, runtime: runtime, logger: logger,
            accessLog: AccessLogWriter(format: settings.logFormat, sink: sink),
            journal: RequestJournal(capacity: settings.journalSize, bodyLimit: settings.journalBodyBytes),
            missHandler: missHandler, reloads: reloader, mockWriter: MockFileWriter(root: loader.root),
            pusher: CommandPusher.make(command: settings.pushCommand),
            relayOpener: relayOpener(missHandler),
            conversationRecorder: conversationRecorder(recorder))
        reloader.serve(server)
        // Existing mocks are looked up in what is being served, not by walking the root again.
        // A strong capture (the server lives as long as the process): a weak one would give the
        // server a side table and slow every retain and release of it on the request path.
        recorder?.findMocks(in: { server.snapshot })
        try start(server, settings: settings, recorder: recorder, sink: sink, logger: logger)
        systemd.notify("READY=1\nSTATUS=\(Reloader.statusLine(server))")
        let watcher = startWatcher(enabled: settings.watch, loader: loader, reloader: reloader, recorder: recorder, logger: logger)

        serveUntilStopped(reloader: reloader, sink: sink, logger: logger)
        systemd.notify("STOPPING=1")
        watcher?.stop()
        server.shutdown()
        // After the requests: every change they made is saved before the process ends.
        stateWriter?.stop()
        logger.info("stopped")
        sink.flush()
    }

    private static func startLogging(_ settings: ServeSettings, sink: LogSink) -> Logger {
        let level = settings.logLevel
        LoggingSystem.bootstrap { label in MockdLogHandler(label: label, format: settings.logFormat, sink: sink, level: level) }
        sink.startPeriodicFlush()
        var logger = Logger(label: "mockd")
        logger.logLevel = level
        return logger
    }

    /// The first snapshot; a configuration that does not load ends the process with every error.
    private static func loadConfiguration(
        _ loader: MockDataLoader, settings: ServeSettings, sink: LogSink, logger: Logger
    ) throws(ServeFailure) -> Snapshot {
        if settings.proxy?.record == true, loader.routesFolder == .none {
            // Answers a file cannot hold are recorded as routes, which --no-routes would never load.
            throw ServeFailure.usage(
                "--record needs a routes folder for the answers it saves as routes: give --routes DIR instead of --no-routes")
        }
        let loaded = loader.load()
        guard let snapshot = loaded.snapshot else {
            sink.flush()
            FileHandleOutput.standardError(ConfigurationError(loaded.diagnostics).description)
            throw ServeFailure.reported
        }
        if let unknown = Scenario.unknown(settings.scenario, in: snapshot) {
            // Served silently, a misspelt name would look like a scenario with no overrides.
            sink.flush()
            FileHandleOutput.standardError("mockd: --scenario \(settings.scenario): \(unknown)")
            throw ServeFailure.reported
        }
        logRoutesFolder(loader.routesFolder.choice(in: loader.files), logger: logger)
        for resource in snapshot.resources.all {
            // Not in the startup line, whose form tools read: one line per resource instead.
            var metadata: Logger.Metadata = [
                "mockd.resource": "\(resource.path)", "mockd.source": "\(resource.source)",
                "mockd.items": "\(resource.seeds[""]?.count ?? 0)",
            ]
            if let seedFile = resource.seedFile { metadata["mockd.seed"] = "\(seedFile)" }
            logger.info("resource loaded", metadata: metadata)
        }
        logger.log(loaded.diagnostics)
        return snapshot
    }

    /// Which routes folder is served and why, or where one was looked for.
    private static func logRoutesFolder(_ choice: RoutesFolder.Choice, logger: Logger) {
        switch choice {
        case .given(let folder): logger.info("routes from the folder given (--routes)", metadata: ["mockd.routesFolder": "\(folder)"])
        case .off: logger.info("no routes (--no-routes)")
        case .besideRoot(let folder): logger.info("routes from the folder beside the root", metadata: ["mockd.routesFolder": "\(folder)"])
        case .workingDirectory(let folder):
            logger.info("routes from the working directory's folder", metadata: ["mockd.routesFolder": "\(folder)"])
        case .missing(let candidates):
            logger.info(
                "no routes folder: create one for route tables (a reload picks it up) or give --routes DIR",
                metadata: ["mockd.create": "\(candidates[0])", "mockd.lookedFor": "\(candidates.joined(separator: " "))"])
        }
    }

    /// What answers a request no mock matches (`--proxy`), and what records it (`--record`).
    /// With `--record`, relayed WebSocket conversations are written down too.
    private static func conversationRecorder(_ recorder: Recorder?) -> ConversationRecorder? {
        guard let recorder else { return nil }
        return { path, transcript in recorder.recordConversationOffThePool(path: path, transcript) }
    }

    /// With `--proxy`, WebSocket upgrades nothing answers are relayed upstream too.
    private static func relayOpener(_ proxy: ProxyMissHandler?) -> WebSocketRelayOpener? {
        guard let proxy else { return nil }
        return { relay, request, then in proxy.openWebSocket(relay, for: request, then: then) }
    }

    private static func upstream(_ settings: ServeSettings, loader: MockDataLoader, logger: Logger) -> (ProxyMissHandler?, Recorder?) {
        guard let proxy = settings.proxy else { return (nil, nil) }
        let recorder =
            proxy.record
            ? Recorder(
                root: loader.root, routesDirectory: loader.routesFolder.forWriting(in: loader.files), overwrite: proxy.recordOverwrite,
                keptHeaders: proxy.recordHeaders, logger: logger)
            : nil
        return (ProxyMissHandler(proxy: UpstreamProxy(configuration: proxy, logger: logger), recorder: recorder, logger: logger), recorder)
    }

    /// `--state-dir`: saved resources replace their seeds, and the thread that saves changes starts.
    private static func restore(
        _ snapshot: Snapshot, with writer: ResourceStateWriter, into runtime: RuntimeState, logger: Logger
    ) throws(ServeFailure) {
        ResourceStateDirectory.restore(snapshot, into: runtime.resources, writer: writer, logger: logger)
        do {
            try writer.start(runtime.resources)
        } catch {
            throw ServeFailure.usage(
                "--state-dir \(writer.folder): cannot start the thread that writes it: \(String(cString: strerror(error.code)))")
        }
        logger.info("resource state kept", metadata: ["mockd.folder": "\(writer.folder)"])
    }

    /// Listens, then writes the startup line that scripts and `mockd serve --background` wait for.
    private static func start(
        _ server: HTTPServer, settings: ServeSettings, recorder: Recorder?, sink: LogSink, logger: Logger
    ) throws(ServeFailure) {
        do {
            try server.start()
        } catch {
            sink.flush()
            FileHandleOutput.standardError("mockd: \(error)")
            throw ServeFailure.reported
        }
        let json = settings.logFormat == .json
        // Before the startup line: whoever reads that line finds the warning already written.
        if let exposure = ExposureWarning.metadata(settings.server) { logger.warning(ExposureWarning.message, metadata: exposure) }
        let snapshot = server.snapshot
        FileHandleOutput.standardOutput(
            StartupLines.listening(
                urls: server.urls, files: snapshot.fileCount, routes: snapshot.routes.count,
                operations: snapshot.operations,
                scenario: settings.scenario, rootPath: snapshot.rootPath,
                routesPath: snapshot.routesPath, json: json))
        if !snapshot.graphQL.isEmpty {
            FileHandleOutput.standardOutput(
                StartupLines.graphQL(
                    endpoints: snapshot.graphQL.endpointPaths, files: snapshot.graphQL.count, schema: snapshot.graphQL.schemaPath,
                    json: json))
        }
        if !snapshot.contracts.isEmpty {
            FileHandleOutput.standardOutput(
                StartupLines.contracts(
                    documents: snapshot.contracts.documents.map(\.name), operations: snapshot.contracts.operations.count,
                    upstream: settings.proxy != nil, json: json))
        }
        if let proxy = settings.proxy {
            FileHandleOutput.standardOutput(
                StartupLines.proxying(
                    upstream: proxy.upstream.absoluteString,
                    recordingInto: recorder.map { ($0.root, $0.routesFile) }, json: json))
        }
    }

    /// Reloads on SIGHUP; returns on SIGTERM or SIGINT. A second one exits at once.
    private static func serveUntilStopped(reloader: Reloader, sink: LogSink, logger: Logger) {
        while true {
            let signal = Signals.wait()
            if signal == SIGHUP {
                reloader.reload(trigger: "SIGHUP")
                continue
            }
            logger.info("stopping", metadata: ["mockd.signal": "\(name(of: signal))"])
            Signals.exitOnSecondSignal { second in
                logger.warning(
                    "second signal: exiting now, without waiting for requests in flight", metadata: ["mockd.signal": "\(name(of: second))"])
                sink.flush()
            }
            return
        }
    }

    private static func name(of signal: Int32) -> String { signal == SIGTERM ? "SIGTERM" : "SIGINT" }

    /// Reloads on edits under the root and the routes folder (not on the recorder's own writes).
    private static func startWatcher(
        enabled: Bool, loader: MockDataLoader, reloader: Reloader, recorder: Recorder?, logger: Logger
    ) -> FileWatcher? {
        guard enabled else { return nil }
        // Absolute, so the recorder's own writes (which it knows by absolute path) can be told apart.
        let directory = FileReading.workingDirectory() ?? "."
        let absolute = { (path: String) in path.hasPrefix("/") ? path : directory + "/" + path }
        // With --openapi a MockData folder is optional: a missing one is not watched.
        let root = loader.operationSources.isEmpty || FileReading.exists(loader.root) ? [loader.root] : []
        var paths: [String] = []
        // The schema's (and the scalars' file's) folder: a watcher sees an editor's save-by-rename there.
        let schema = loader.graphQL.schema.map { $0.paths.map(FilePath.folder(of:)) } ?? []
        for path
            in (root + loader.routesFolder.watched + (loader.operationSources + loader.contractSources).flatMap(\.watchedPaths) + schema)
            .map(absolute)
        where !paths.contains(path) { paths.append(path) }
        // A default routes folder may be made after start: watched for appearing.
        let optional = Set(loader.routesFolder.given == nil ? loader.routesFolder.candidates.map(absolute) : [])
        let watcher = FileWatcher(paths: paths, mayBeMissing: optional, ignore: { path in recorder?.isOwnWrite(path) ?? false }) {
            reloader.reload(trigger: "watch")
        }
        do {
            try watcher.start()
        } catch {
            logger.warning("not watching for changes (SIGHUP or POST /__mockd/reload still reload)", metadata: ["mockd.reason": "\(error)"])
            return nil
        }
        logger.info("watching for changes", metadata: ["mockd.mode": "\(watcher.mode)", "mockd.paths": "\(paths.joined(separator: " "))"])
        if let reason = watcher.fallbackReason { logger.warning("watching by polling", metadata: ["mockd.reason": "\(reason)"]) }
        return watcher
    }
}
