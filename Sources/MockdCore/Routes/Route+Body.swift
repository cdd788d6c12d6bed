extension Route {
    /// The route needs the request body whole: a `json` or `text` condition, or a template
    /// (templates can read the body's JSON).
    var readsRequestBody: Bool {
        conditions.contains { condition in
            switch condition {
            case .json, .text, .graphQL: true
            case .header, .query: false
            }
        }
            || responses.contains { response in
                if case .template = response.body { true } else { false }
            }
    }
}
