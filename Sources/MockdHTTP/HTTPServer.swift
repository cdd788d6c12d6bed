package import Logging
package import MockdCore
import Dispatch
import MockdDisk
import MockdLock
import MockdSystem
import Synchronization

/// mockd's HTTP server: one libmicrohttpd daemon per listen address, answering every request
/// from the current snapshot. This file is the package face (install, what it serves);
/// `HTTPServer+Lifecycle` starts and stops it. One
/// request's way is in the files beside it, in order (docs/ARCHITECTURE.md walks through it):
/// - `DaemonCallbacks`: libmicrohttpd's C entry points; `Daemon`: one `MHD_Daemon` and its options.
/// - `HTTPServer+Reading`: the head (`RequestHead`, decided once), the body (`RequestReader`,
///   `BodyBudget`), then the `MockRequest` the core resolves.
/// - `HTTPServer+Answering`: carries out the core's `Resolution`, sending now or parking
///   (`ParkingLot`: suspended requests and their timers); `HTTPServer+Admin` for admin calls.
/// - `RequestLog`: the access line and the journal entry, written as each answer is sent.
/// - `ConnectionGuard`, `BodyBudget`: what slow and greedy clients meet (head deadline and
///   eviction, body memory); the framing rules and the admin API's guard are the core's.
///
/// The snapshot and the libmicrohttpd responses built from it are swapped together by
/// `install(_:)`; a request keeps the `ServingState` it had when its head arrived until it is answered.
package final class HTTPServer: Sendable {
    package let configuration: ServerConfiguration
    package let runtime: RuntimeState
    /// Lines at info or below, the level swift-log's guide gives a library: what the server logs
    /// (a refused connection, an unknown scenario) a client can cause at will, so it is not the
    /// server's to raise to warning; the executable's level decides what is shown.
    let logger: Logger
    let current: Lock<ServingState>
    /// Where the server is in its life (`HTTPServer+Lifecycle`).
    let lifecycle = Lifecycle()
    /// Its own port's daemons, port and URLs.
    let mainPort = MainPort()
    /// Session ports by session id (`HTTPServer+Sessions`).
    let sessions = SessionTable()
    /// Requests between their request line and their completion, on every port: shutdown waits for them.
    let inFlight = InFlight()
    /// Head deadlines, eviction at --max-connections, and the open connections' count (see `ConnectionGuard`).
    let connections: ConnectionGuard
    /// Memory for request bodies (see `BodyBudget`).
    let bodyBudget: BodyBudget
    let startedAt = RequestState.monotonicNanoseconds()
    package let journal: RequestJournal
    let log: RequestLog
    let parking: ParkingLot
    #if !MOCKD_NO_WEBSOCKET
        /// Open WebSocket connections (routes with `"websocket"`).
        let webSockets: WebSocketRegistry
    #endif
    /// Dashboards waiting for news (`GET /__mockd/events`).
    let news = NewsFeed(label: "mockd.news", cadence: .milliseconds(250))
    /// Tests waiting for their app's requests (`GET /__mockd/requests?count=N&wait=S`).
    let requestWaits = NewsFeed(label: "mockd.request-waits", cadence: .milliseconds(2))
    /// What the effects of admin answers are carried out with (`HTTPServer+Admin`).
    let effectors: AdminEffectors
    let missHandler: (any MissHandler)?
    /// Opens the upstream side of a WebSocket relayed with `--proxy` (nil: no proxy).
    let relayOpener: WebSocketRelayOpener?
    /// Writes relayed conversations down (`--record`; nil: not recording).
    let conversationRecorder: ConversationRecorder?
    /// Upstream streams between the upstream's 101 and the app's, by request.
    let relayStreams = Lock<[ObjectIdentifier: any ByteStream]>([:])

    /// `accessLog`: where the access line of each request is written, when not through `logger`
    /// (nil: through it, at info, as every other line, whatever its handler). The logger's level
    /// still decides whether access lines are written at all.
    package init(
        configuration: ServerConfiguration, snapshot: Snapshot, runtime: RuntimeState, logger: Logger,
        accessLog: AccessLogWriter? = nil, journal: RequestJournal = RequestJournal(), missHandler: (any MissHandler)? = nil,
        reloads: (any Reloading)? = nil, mockWriter: (any MockFileWriting)? = nil, files: any FileSource = DiskFiles(),
        pusher: (any PushSending)? = nil, relayOpener: WebSocketRelayOpener? = nil, conversationRecorder: ConversationRecorder? = nil
    ) {
        self.configuration = configuration
        self.runtime = runtime
        self.logger = logger
        self.journal = journal
        #if !MOCKD_NO_WEBSOCKET
            // A connection opening or ending changes what dashboards show, as a scenario set does:
            // the open one's upgrade request is journaled before it is listed, and an ending is
            // not journaled at all, so the journal alone would leave the list stale.
            self.webSockets = WebSocketRegistry { [runtime, news] in
                runtime.noteChange()
                news.announce()
            }
        #endif
        self.effectors = AdminEffectors(reloads: reloads, mockWriter: mockWriter, files: files, pusher: pusher)
        self.log = RequestLog(
            logger: logger, accessWriter: accessLog, journal: journal, news: news, requestWaits: requestWaits,
            redactsCredentials: configuration.redactsJournalCredentials)
        self.parking = ParkingLot(limit: configuration.maxParked)
        self.missHandler = missHandler
        self.relayOpener = relayOpener
        self.conversationRecorder = conversationRecorder
        self.bodyBudget = BodyBudget(limit: configuration.maxBodyMemoryBytes)
        self.connections = ConnectionGuard(
            headTimeoutSeconds: configuration.headTimeoutSeconds, minimumBodyRate: configuration.minimumBodyRate,
            bodyRateWindowSeconds: configuration.bodyRateWindowSeconds, logger: logger)
        self.current = Lock(
            ServingState(
                snapshot: snapshot, runtime: runtime,
                policy: Self.policy(configuration, forwardsMisses: missHandler != nil),
                extraHeaders: configuration.corsHeaders))
    }

    /// What the core weighs against the snapshot for this server.
    static func policy(_ configuration: ServerConfiguration, forwardsMisses: Bool) -> ResolutionPolicy {
        ResolutionPolicy(
            globalDelay: configuration.globalDelay, answersPreflight: configuration.cors, adminEnabled: configuration.adminEnabled,
            adminAccess: AdminAccess(allowedHosts: configuration.allowedHosts, token: configuration.adminToken),
            forwardsMisses: forwardsMisses, pushBundleID: configuration.pushBundleID)
    }

    package var snapshot: Snapshot { current.withLock { $0.snapshot } }

    /// Swaps in a new snapshot. Requests already resolved finish with the old one. With
    /// `failedReload` (the last good snapshot again, after a reload that failed) every answer says so.
    package func install(_ snapshot: Snapshot, failedReload: FailedReload? = nil) {
        let next = ServingState(
            snapshot: snapshot, runtime: runtime, policy: Self.policy(configuration, forwardsMisses: missHandler != nil),
            extraHeaders: configuration.corsHeaders, failedReload: failedReload)
        current.withLock { $0 = next }
        // What requests wrote stays across a reload, unless the seed it grew from changed.
        for path in runtime.resources.adopt(snapshot.resources) {
            logger.info("resource state reset: its seed changed", metadata: ["mockd.resource": "\(path)"])
        }
        announceChange()
    }

    /// Something dashboards show changed outside a request (a reload, failed or not).
    package func announceChange() {
        runtime.noteChange()
        news.announce()
    }

    deinit {
        shutdown(timeout: .zero)
    }
}
