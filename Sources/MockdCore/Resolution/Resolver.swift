/// Decides the answer to a request from a snapshot. Pure: no I/O, no sockets.
///
/// Order for a request in scenario S (SPEC section 3), first hit wins:
/// files under `scenarios/S/`, then files anywhere else, then a 404 that says what was looked for.
public struct Resolver: Sendable {
    public let snapshot: Snapshot
    public let state: RuntimeState

    public init(snapshot: Snapshot, state: RuntimeState) {
        self.snapshot = snapshot
        self.state = state
    }

    public func resolve(_ request: MockRequest) -> Answer {
        let scenario = state.scenario(for: request)
        if let file = file(for: request, scenario: scenario) {
            return Answer(.prepared(file.response), scenario: scenario)
        }
        return Answer(.built(NotFoundReport.response(for: request, scenario: scenario, in: snapshot)), scenario: scenario)
    }

    /// The mock file for a request. HEAD uses `_head.json` when there is one, else `_get.json`.
    func file(for request: MockRequest, scenario: String) -> MockFile? {
        let name = MockFileName.forRequest(method: request.method, path: request.path)
        if let file = lookup(name, scenario: scenario) { return file }
        if request.method == "HEAD" {
            return lookup(MockFileName.forRequest(method: "GET", path: request.path), scenario: scenario)
        }
        return nil
    }

    private func lookup(_ name: String, scenario: String) -> MockFile? {
        if scenario != Scenario.default || !snapshot.overlays.isEmpty, let overlay = snapshot.overlays[scenario]?[name] {
            return overlay
        }
        return snapshot.files[name]
    }
}
