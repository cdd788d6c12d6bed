@testable import MockdCore
import Testing

/// A path parameter's value in a request's segment, compared as bytes: what the operation
/// table's tree and the validator read on every request.
@Suite struct OperationSegmentTests {
    @Test(
        arguments: [
            ("{id}", "42", "42"),
            ("{id}", "", nil),
            ("{id}.json", "42.json", "42"),
            ("{id}.json", ".json", nil),
            ("{id}.json", "42.xml", nil),
            ("v{n}", "v2", "2"),
            ("v{n}", "v", nil),
            ("v{n}", "x2", nil),
            ("a{x}b", "ab", nil),
            ("a{x}b", "a-b", "-"),
            ("{name}", "café", "café"),
            ("é{x}", "éa", "a"),
            ("é{x}", "e\u{301}a", nil),  // the same Character, other bytes: templates and paths compare as sent
        ] as [(String, String, String?)])
    func value(template: String, part: String, expected: String?) throws {
        let segment = try #require(OperationSegment.parse("/" + template).first)
        guard case .parameter(_, let prefix, let suffix) = segment else {
            Issue.record("\(template) is not a parameter segment")
            return
        }
        #expect(OperationSegment.value(in: Substring(part), prefix: prefix, suffix: suffix).map(String.init) == expected)
    }

    @Test func pathParametersAreReadByName() {
        let operation = APIOperation(
            method: "GET", pathTemplate: "/v1/items/{id}/files/{name}.json", responses: [], validator: nil,
            security: [], source: "test")
        let parts = PathPattern.split("/v1/items/ch_1/files/report.json")
        #expect(operation.matches(parts))
        let path = "/v1/items/ch_1/files/report.json"
        let parameters = PathParameters(segments: operation.segments, path: path, ranges: PathPattern.withBytes(path, PathPattern.ranges))
        #expect(parameters["id"] == "ch_1")
        #expect(parameters["name"] == "report")
        #expect(parameters["other"] == nil)
        #expect(!operation.matches(PathPattern.split("/v1/items/ch_1/files/report.xml")))
        #expect(!operation.matches(PathPattern.split("/v1/items/ch_1/files")))
    }

    /// The tree's literal children: every one found among many (the table grows as they are
    /// added), others not, and texts compared as bytes, as the path is sent.
    @Test func literalChildrenAreFoundByTheirBytes() {
        var children = LiteralChildren()
        let names = (0..<300).map { "segment_\($0)" } + ["café", ""]
        for (node, name) in names.enumerated() { children.insert(name, node: node) }
        for (node, name) in names.enumerated() { #expect(children[Array(name.utf8)] == node, "\(name)") }
        #expect(children[Array("segment_300".utf8)] == nil)
        #expect(children[Array("segment_".utf8)] == nil)
        #expect(children[Array("cafe\u{301}".utf8)] == nil)
        #expect(LiteralChildren()[Array("x".utf8)] == nil)
    }

    /// The first operation the tree finds for a condition is the first of every match in order,
    /// most specific first.
    @Test func theFirstMatchIsTheFirstOfAllMatches() {
        let templates = ["/pets/{id}", "/pets/mine", "/pets/{id}", "/pets/{name}.json", "/pets/mine/toys", "/{any}/mine"]
        let tree = SegmentTree(templates.map(OperationSegment.parse))
        for path in ["/pets/mine", "/pets/rex", "/pets/rex.json", "/pets/.json", "/pets/mine/toys", "/cats/mine", "/dogs", "/"] {
            let all = tree.matches(path)
            #expect(tree.first(path, where: { _ in true }) == all.first, "\(path)")
            #expect(tree.first(path, where: { $0 % 2 == 0 }) == all.first(where: { $0 % 2 == 0 }), "\(path)")
            #expect(tree.first(path, where: { $0 == 2 }) == (all.contains(2) ? 2 : nil), "\(path)")
        }
        #expect(tree.matches("/pets/mine") == [1, 0, 2, 5])
        // The parameter with text around it before the bare one, wherever the document lists it.
        #expect(tree.matches("/pets/rex.json") == [3, 0, 2])
        #expect(tree.matches("/pets/.json") == [0, 2])
    }

    /// OpenAPI: concrete paths before templated ones; among parameters, one with fixed text
    /// around it (`{id}.pgn`, `v{n}`) before a bare `{id}`, whatever the document's order, so
    /// `/games/{id}.pgn` is reached behind `/games/{id}`.
    @Test func aParameterWithTextAroundItComesBeforeABareOne() {
        let templates = ["/games/{id}", "/games/{id}.pgn", "/games/{id}/moves", "/games/g{id}.pgn", "/games/mine"]
        let tree = SegmentTree(templates.map(OperationSegment.parse))
        #expect(tree.first("/games/abc.pgn", where: { _ in true }) == 1)
        #expect(tree.first("/games/gabc.pgn", where: { _ in true }) == 3)
        #expect(tree.first("/games/abc", where: { _ in true }) == 0)
        #expect(tree.first("/games/mine", where: { _ in true }) == 4)
        #expect(tree.first("/games/abc.pgn/moves", where: { _ in true }) == 2)
        #expect(tree.matches("/games/gabc.pgn") == [3, 1, 0])
    }
}
