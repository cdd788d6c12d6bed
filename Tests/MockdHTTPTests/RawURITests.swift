import Testing
@testable import MockdHTTP

/// `RequestTarget`, alone: the one pass over the raw request target that every request makes
/// (percent-encoding check with its reason, raw query, raw path).
@Suite("Raw URI")
struct RawURITests {
    private func parse(_ uri: String) -> (bad: Bool, query: String, path: String?) {
        let parsed = uri.withCString { RequestTarget($0) }
        return (parsed.percentEncodingError != nil, parsed.rawQuery, parsed.rawPath)
    }

    @Test func aPlainPath_HasNoQueryAndNoRawPath() {
        let parsed = parse("/api/users")
        #expect(parsed.bad == false)
        #expect(parsed.query == "")
        #expect(parsed.path == nil)
    }

    @Test func theQuery_IsWhatFollowsTheFirstQuestionMark_BeforeAnyFragment() {
        #expect(parse("/a?x=1&y=2").query == "x=1&y=2")
        #expect(parse("/a?x=1#top").query == "x=1")
        #expect(parse("/a?x=?").query == "x=?")
        #expect(parse("/a?").query == "")
    }

    @Test func anEncodedPath_IsKeptAsSent() {
        let parsed = parse("/a%2Fb?x=%41")
        #expect(parsed.bad == false)
        #expect(parsed.path == "/a%2Fb")
        #expect(parsed.query == "x=%41")
    }

    @Test(arguments: ["/a%zz", "/a%4", "/a%", "/a%00", "/%g1/b", "/a%2"])
    func aBrokenEscapeInThePath_IsBad(_ uri: String) {
        #expect(parse(uri).bad == true)
    }

    @Test(arguments: [
        ("/a%zz", "'%zz'"), ("/a%4", "'%4'"), ("/a%", "'%'"), ("/a%00", "%00 (a NUL byte)"), ("/a%00%zz", "%00"), ("/a%zz%00", "'%zz'"),
    ])
    func theReasonNamesTheFirstBrokenEscapeAsSent(_ uri: String, _ named: String) {
        let reason = uri.withCString { RequestTarget($0).percentEncodingError }
        #expect(reason?.contains(named) == true, "\(reason ?? "nil")")
    }

    @Test func theQueryIsNotCheckedByThePathsRules() {
        let parsed = parse("/ok?q=%zz")
        #expect(parsed.bad == false)
        #expect(parsed.query == "q=%zz")
        #expect(parsed.path == nil)
    }

    @Test func aFragmentEndsThePath() {
        let parsed = parse("/p%20q#x?y")
        #expect(parsed.path == "/p%20q")
        #expect(parsed.query == "")
    }
}
