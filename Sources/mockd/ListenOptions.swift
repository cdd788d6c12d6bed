import ArgumentParser
import MockdHTTP
import MockdServe

/// Where `mockd serve` listens, and on how many threads.
struct ListenOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Address to listen on: 127.0.0.1, localhost (127.0.0.1 and ::1), 0.0.0.0 (containers), or any IP. [env: MOCKD_HOST]",
            valueName: "host"))
    var host = ServeSettings.defaults.server.host

    @Option(
        name: [.short, .long],
        help: ArgumentHelp("Port; 0 takes a free one (the startup line shows it). [env: MOCKD_PORT]", valueName: "port"))
    var port = ServeSettings.defaults.server.port

    /// nil: the configuration's own, which depends on the CPUs this process may use, so `--help`
    /// says how it is chosen rather than the number of the machine that printed it.
    @Option(help: ArgumentHelp("Worker threads. [env: MOCKD_THREADS; default: the CPUs mockd may run on, at most 8]", valueName: "n"))
    var threads: Int?

    func validate() throws {
        try OptionRange.check(port, "port", 0...65535)
        if let threads { try OptionRange.check(threads, "threads", 1...64) }
    }

    func apply(to server: inout ServerConfiguration) {
        server.host = host
        server.port = port
        if let threads { server.threads = threads }
    }
}
