/// Where a mock body breaks the API description that documents its request: the operation and
/// status it was checked against, and every violation with its place.
package struct ContractFinding: Sendable, Equatable {
    /// `openapi api.yaml GET /pets/{id} 200`.
    package let checkedAgainst: String
    /// `body.id: expected integer, found "7"`, in the order the schema finds them.
    package let violations: [String]
}

extension OperationTable {
    /// Checks `body`, answered with `status` to `method` `path`, against the documented schema
    /// of that answer: the status itself, else its class (`2XX`), else `default`, in its JSON
    /// media type. Nil when no operation documents the request or the answer has no JSON schema
    /// (nothing to check against); a finding with no violations when the body follows it.
    package func contractFinding(method: String, path: String, status: Int, body: JSONValue) -> ContractFinding? {
        guard let index = operationIndex(method: method, path: path) else { return nil }
        return Self.contractFinding(operations[index], status: status, body: body)
    }

    /// The same for an operation already found.
    static func contractFinding(_ operation: APIOperation, status: Int, body: JSONValue) -> ContractFinding? {
        guard
            let documented = operation.responses.first(where: { $0.status == status && !$0.isRange })
                ?? operation.responses.first(where: { $0.answers(status) }) ?? operation.responses.first(where: { $0.status == nil }),
            let check = ([documented] + documented.alternatives).lazy.compactMap(\.bodyViolations).first
        else { return nil }
        let shownStatus = documented.status.map { documented.isRange ? "\($0 / 100)XX" : String($0) } ?? "default"
        return ContractFinding(checkedAgainst: "\(operation.source) \(shownStatus)", violations: check(body))
    }

    /// Checks the JSON answers of one route-table route (its `response` or each of its
    /// `responses` with a `json` body and no template) against the operation its method and
    /// path reach, a `:name` segment standing for any value: one per violation, placed in the
    /// route (`routes[0].response`, `breaks openapi api.yaml GET /pets/{id} 200: body.id: …`).
    /// Paths with `*`, `**` or a `pathPattern` reach no one operation and are not checked.
    func contractViolations(route: JSONValue, at place: String) -> [(location: String, message: String)] {
        guard !isEmpty, case .string(let path)? = route["path"], !path.contains("*") else { return [] }
        let concrete = PathPattern.split(path).map { $0.hasPrefix(":") ? "1" : String($0) }.joined(separator: "/")
        let methods: [String]
        switch route["method"] {
        case .string(let method)?: methods = [method]
        case .array(let items)?: methods = items.compactMap { if case .string(let method) = $0 { method } else { nil } }
        default: return []
        }
        var answers: [(place: String, response: JSONValue)] = []
        if let single = route["response"] { answers.append((place + ".response", single)) }
        if case .array(let list)? = route["responses"] {
            answers += list.enumerated().map { (place + ".responses[\($0.offset)]", $0.element) }
        }
        var lines: [(location: String, message: String)] = []
        for (answerPlace, response) in answers where response["template"] == nil {
            guard let body = response["json"] else { continue }
            var status = 200
            if case .number(let digits)? = response["status"], let number = Int(digits) { status = number }
            for method in methods where method != "*" {
                guard let finding = contractFinding(method: method, path: "/" + concrete, status: status, body: body) else { continue }
                lines += finding.violations.map { (answerPlace, "breaks \(finding.checkedAgainst): \($0)") }
            }
        }
        return lines
    }

    /// The operation that answers `method` `path`, as a request would find it (HEAD as GET).
    func operation(method: String, path: String) -> APIOperation? {
        operationIndex(method: method, path: path).map { operations[$0] }
    }

    private func operationIndex(method: String, path: String) -> Int? {
        tree.first(path, where: { operations[$0].method == method })
            ?? HTTPMethods.alsoAnsweredAs(method).flatMap { other in tree.first(path, where: { operations[$0].method == other }) }
    }
}
