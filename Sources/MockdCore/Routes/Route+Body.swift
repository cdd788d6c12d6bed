extension Route {
    /// The route needs the request body whole: a `json` or `text` condition, a template
    /// (templates can read the body's JSON), or a `then` push (its payload is a template too).
    var readsRequestBody: Bool {
        conditions.contains { condition in
            switch condition {
            case .json, .text, .graphQL: true
            case .header, .query: false
            }
        }
            || responses.contains { response in
                // A `then` push's payload is rendered over the request, body included.
                if case .template = response.body { true } else { response.then != nil }
            }
    }
}
