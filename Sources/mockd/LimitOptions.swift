import ArgumentParser
import MockdHTTP
import MockdServe

/// What `mockd serve` puts up with from clients: body and head sizes, memory, connections,
/// timeouts and parked requests. Each default is `ServerConfiguration`'s.
struct LimitOptions: ParsableArguments {
    @Option(
        name: .customLong("max-body-bytes"),
        help: ArgumentHelp("Largest request body; larger ones get 413. [env: MOCKD_MAX_BODY_BYTES]", valueName: "n"))
    var maxBodyBytes = ServeSettings.defaults.server.maxBodyBytes

    @Option(
        name: .customLong("max-body-memory"),
        help: ArgumentHelp(
            "Memory all request bodies held at once may take; past it 503 with Retry-After. Bodies no route reads are held only as far as the journal keeps them. [env: MOCKD_MAX_BODY_MEMORY]",
            valueName: "bytes"))
    var maxBodyMemory = ServeSettings.defaults.server.maxBodyMemoryBytes

    @Option(
        name: .customLong("max-header-bytes"),
        help: ArgumentHelp(
            "Room for the request line and headers; larger requests get 414 or 431. [env: MOCKD_MAX_HEADER_BYTES]", valueName: "n"))
    var maxHeaderBytes = ServeSettings.defaults.server.maxHeaderBytes

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp(
            "At this many open connections a new one closes the slowest (head pending longest, else idle longest); refused only when all are busy. [env: MOCKD_MAX_CONNECTIONS]",
            valueName: "n"))
    var maxConnections = ServeSettings.defaults.server.maxConnections

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp("Seconds before an idle or stalled client is disconnected. [env: MOCKD_IDLE_TIMEOUT]", valueName: "seconds"))
    var idleTimeout = ServeSettings.defaults.server.idleTimeoutSeconds

    @Option(
        name: .customLong("head-timeout"),
        help: ArgumentHelp(
            "Seconds a client has to send a whole request head, from its first byte (a dribbled head gets 408). [env: MOCKD_HEAD_TIMEOUT]",
            valueName: "seconds"))
    var headTimeout = ServeSettings.defaults.server.headTimeoutSeconds

    @Option(
        name: .customLong("min-body-rate"),
        help: ArgumentHelp(
            "Bytes a second a request body must bring, over \(ServeSettings.defaults.server.bodyRateWindowSeconds) s; slower gets 408 and is closed (0: no minimum). [env: MOCKD_MIN_BODY_RATE]",
            valueName: "bytes"))
    var minBodyRate = ServeSettings.defaults.server.minimumBodyRate

    @Option(
        name: .customLong("max-parked"),
        help: ArgumentHelp(
            "Requests waiting at once on delays, timeout faults or the upstream; more get 503. [env: MOCKD_MAX_PARKED]", valueName: "n"))
    var maxParked = ServeSettings.defaults.server.maxParked

    @Option(
        name: .customLong("max-ws-message-bytes"),
        help: ArgumentHelp(
            "Longest WebSocket message an app may send; a longer one closes its connection with 1009. [env: MOCKD_MAX_WS_MESSAGE_BYTES]",
            valueName: "bytes"))
    var maxWebSocketMessageBytes = ServeSettings.defaults.server.maxWebSocketMessageBytes

    @Option(
        name: .customLong("ws-ping-interval"),
        help: ArgumentHelp(
            "Seconds between the pings mockd sends on each open WebSocket connection (0: none; mockd always answers the app's). [env: MOCKD_WS_PING_INTERVAL]",
            valueName: "seconds"))
    var webSocketPingInterval = ServeSettings.defaults.server.webSocketPingSeconds

    func validate() throws {
        try OptionRange.check(maxBodyBytes, "max-body-bytes", 0...Int.max)
        try OptionRange.check(maxBodyMemory, "max-body-memory", 0...Int.max)
        try OptionRange.check(maxHeaderBytes, "max-header-bytes", 4096...Int.max)
        try OptionRange.check(maxConnections, "max-connections", 1...Int.max)
        try OptionRange.check(idleTimeout, "idle-timeout", 1...Int.max)
        try OptionRange.check(headTimeout, "head-timeout", 1...Int.max)
        try OptionRange.check(minBodyRate, "min-body-rate", 0...Int.max)
        try OptionRange.check(maxParked, "max-parked", 0...Int.max)
        try OptionRange.check(maxWebSocketMessageBytes, "max-ws-message-bytes", 1...Int.max)
        try OptionRange.check(webSocketPingInterval, "ws-ping-interval", 0...86_400)
    }

    func apply(to server: inout ServerConfiguration) {
        server.maxBodyBytes = maxBodyBytes
        server.maxBodyMemoryBytes = maxBodyMemory
        server.maxHeaderBytes = maxHeaderBytes
        server.maxConnections = maxConnections
        server.idleTimeoutSeconds = idleTimeout
        server.headTimeoutSeconds = headTimeout
        server.minimumBodyRate = minBodyRate
        server.maxParked = maxParked
        server.maxWebSocketMessageBytes = maxWebSocketMessageBytes
        server.webSocketPingSeconds = webSocketPingInterval
    }
}
