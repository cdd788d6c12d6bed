package import Logging
package import MockdCore
package import MockdSystem

/// `--proxy` (and `--record`) as the server's miss handler: forwards what nothing matched,
/// and saves real answers as mocks.
package final class ProxyMissHandler: MissHandler {
    let proxy: UpstreamProxy
    let recorder: Recorder?
    let logger: Logger

    package init(proxy: UpstreamProxy, recorder: Recorder?, logger: Logger) {
        self.proxy = proxy
        self.recorder = recorder
        self.logger = logger
    }

    package func answer(_ request: MockRequest, then: @escaping @Sendable (BuiltResponse) -> Void) {
        proxy.forward(request) { [self] outcome in
            var response = outcome.response
            let milliseconds =
                Double(outcome.upstreamDuration.components.attoseconds) / 1e15 + Double(outcome.upstreamDuration.components.seconds) * 1000
            response.origin = response.origin.noting("\(Int(milliseconds.rounded()))ms")
            guard let recorder else { return then(response) }
            // The recorder writes with fsync: off libmicrohttpd's threads and off the proxy's
            // libcurl thread, which other upstream calls share. It decides from the outcome what
            // is worth saving (mockd's own 502/504 is not). It logs what it wrote or kept (one
            // line a recording); only a skip is said here. The answer goes once it is written.
            recorder.recordOffThePool(request, outcome) { [self, response] recorded in
                if case .skipped(let why) = recorded {
                    logger.debug(
                        "not recording",
                        metadata: ["mockd.method": "\(request.method)", "mockd.path": "\(request.path)", "mockd.reason": "\(why)"])
                }
                then(response)
            }
        }
    }

    /// Relays a WebSocket upgrade upstream (`UpstreamProxy.openWebSocket`).
    package func openWebSocket(
        _ relay: WebSocketRelay, for request: MockRequest, then: @escaping @Sendable (Resolution, (any ByteStream)?) -> Void
    ) {
        proxy.openWebSocket(relay, for: request, then: then)
    }

    package func shutdown() {
        proxy.shutdown()
    }
}
