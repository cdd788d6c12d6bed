import Testing

@testable import MockdCore

/// Which path templates a mock file's name could be a path of: how drift finds the documented
/// operation a file answers.
@Suite struct StemFitTests {
    @Test(arguments: [
        ("_pets_7", "/pets/{id}", true), ("_pets_a_b", "/pets/{id}", true), ("_pets", "/pets/{id}", false),
        ("_pets_7_toys", "/pets/{id}/toys", true), ("_pets_7.pgn", "/pets/{id}.pgn", true), ("_pets_7", "/pets/{id}.pgn", false),
        ("_v1_the_items_ch_1", "/v1/the_items/{id}", true), ("_pets_7_x", "/pets/{id}/toys", false),
    ])
    func aStemFitsTheTemplatesItCouldBeAPathOf(stem: String, template: String, fits: Bool) {
        let parts = ContractDrift.StemIndex.parts(OperationSegment.parse(template))
        #expect(ContractDrift.StemIndex.fits(Array(stem.utf8)[...], parts[...]) == fits)
    }

    /// A file's name is fitted to the templates in the order a request's path is: the one with
    /// text around its parameter (`{id}.pgn`) before the bare one, whatever the document's order.
    @Test func theTemplateWithTextAroundItsParameterIsTriedFirst() {
        let operations = ["/games/{id}", "/games/{id}.pgn"].map {
            APIOperation(method: "GET", pathTemplate: $0, responses: [], validator: nil, security: [], source: "test")
        }
        let index = ContractDrift.StemIndex(OperationTable(operations: operations))
        #expect(index.operation(method: "GET", stem: "_games_abc.pgn")?.pathTemplate == "/games/{id}.pgn")
        #expect(index.operation(method: "GET", stem: "_games_abc")?.pathTemplate == "/games/{id}")
    }
}
