extension Resolver {
    /// With `--contract` and `--proxy`, what the upstream answered checked against the contract
    /// that documents the request: nil when it follows it (or nothing documents it, or the body is
    /// not JSON), else the warning the answer carries (`X-Mockd-Warning`, the log, the journal's
    /// source), Prism's validation proxy's finding. The answer itself is not changed.
    package func upstreamWarning(for request: MockRequest, answer: BuiltResponse) -> String? {
        guard !snapshot.contracts.isEmpty, let body = try? JSONParser.parse(answer.body),
            let finding = snapshot.contracts.contractFinding(method: request.method, path: request.path, status: answer.status, body: body),
            let first = finding.violations.first
        else { return nil }
        let more = finding.violations.count > 1 ? " (and \(finding.violations.count - 1) more)" : ""
        return "the upstream's answer breaks \(finding.checkedAgainst): \(first)\(more)"
    }
}
