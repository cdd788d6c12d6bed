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
        let parameters = PathParameters(segments: operation.segments, parts: parts)
        #expect(parameters["id"] == "ch_1")
        #expect(parameters["name"] == "report")
        #expect(parameters["other"] == nil)
        #expect(!operation.matches(PathPattern.split("/v1/items/ch_1/files/report.xml")))
        #expect(!operation.matches(PathPattern.split("/v1/items/ch_1/files")))
    }
}
