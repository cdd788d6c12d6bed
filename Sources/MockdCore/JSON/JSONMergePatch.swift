/// JSON Merge Patch (RFC 7396), which a resource's PATCH applies. Written here, over
/// `JSONValue`, because the libraries that implement it work on Foundation's JSON objects,
/// which lose key order and the written form of numbers (an integer id could come back `3.0`).
extension JSONValue {
    /// `patch` applied to this value: an object patch sets its members (recursively), `null`
    /// members remove theirs, anything else replaces the whole value. Kept keys stay in place;
    /// new ones are added at the end.
    package func merged(with patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var members: [(key: String, value: JSONValue)]
        if case .object(let existing) = self { members = existing } else { members = [] }
        for change in changes {
            let index = members.lastIndex { $0.key == change.key }
            if change.value == .null {
                members.removeAll { $0.key == change.key }
            } else if let index {
                members[index].value = members[index].value.merged(with: change.value)
            } else {
                members.append((key: change.key, value: JSONValue.null.merged(with: change.value)))
            }
        }
        return .object(members)
    }
}
