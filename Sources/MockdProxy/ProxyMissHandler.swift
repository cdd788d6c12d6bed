package import Logging
package import MockdCore

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

    package func answer(_ request: MockRequest) async -> BuiltResponse {
        let outcome = await proxy.forward(request)
        var response = outcome.response
        let milliseconds =
            Double(outcome.upstreamDuration.components.attoseconds) / 1e15 + Double(outcome.upstreamDuration.components.seconds) * 1000
        response.origin = response.origin.noting("\(Int(milliseconds.rounded()))ms")
        if let recorder {
            // The recorder writes with fsync: off libmicrohttpd's threads and off the Swift pool.
            // It decides from the outcome what is worth saving (mockd's own 502/504 is not).
            // The recorder logs what it wrote or kept (one line a recording); only a skip is said here.
            if case .skipped(let why) = await recorder.recordOffThePool(request, outcome) {
                logger.debug(
                    "not recording",
                    metadata: ["mockd.method": "\(request.method)", "mockd.path": "\(request.path)", "mockd.reason": "\(why)"])
            }
        }
        return response
    }

    package func shutdown() {
        proxy.shutdown()
    }
}
