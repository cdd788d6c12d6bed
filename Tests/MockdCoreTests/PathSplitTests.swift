@testable import MockdCore
import Testing

/// `PathPattern.split`, which routes and operations match on: segments between `/`, the
/// leading one and one trailing slash ignored, empty segments kept.
@Suite struct PathSplitTests {
    @Test(arguments: [
        ("/", [String]()),
        ("", []),
        ("/api/users", ["api", "users"]),
        ("/api/users/", ["api", "users"]),
        ("api/users", ["api", "users"]),
        ("/api//users", ["api", "", "users"]),
        ("/api/users//", ["api", "users", ""]),
        ("//", []),
        ("///", ["", ""]),
        ("/v1/the_items/ch_1", ["v1", "the_items", "ch_1"]),
        ("/café/ünï/日本", ["café", "ünï", "日本"]),
        ("/e\u{301}/x", ["e\u{301}", "x"]),
    ])
    func segments(path: String, expected: [String]) {
        #expect(PathPattern.split(path).map(String.init) == expected)
        #expect(PathPattern.split(path) == Self.characterSplit(path))
    }

    /// The former `split`, on Characters: the byte version must cut the same segments.
    static func characterSplit(_ path: String) -> [Substring] {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.first == "" { parts.removeFirst() }
        if parts.count > 1, parts.last == "" { parts.removeLast() }
        if parts == [""] { return [] }
        return parts
    }
}
