import Foundation
import MockdCore
import Testing

/// mockd's own JSON parser against JSONTestSuite's parsing cases: what must be accepted is, what
/// must be refused is, and the rest is answered one way by both `parse` and `validate`, never
/// with a crash. The cases are files (`Tests/Fixtures/JSONTestSuite`), hence this target.
@Suite struct JSONTestSuiteTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/JSONTestSuite/test_parsing").standardizedFileURL.path

    static func cases(_ prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    static func bytes(_ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: folder + "/" + name) ?? Data())
    }

    /// (accepted by `parse`, accepted by `validate`)
    static func verdicts(_ name: String) -> (parsed: Bool, validated: Bool) {
        let input = bytes(name)
        let parsed = (try? JSONParser.parse(input)) != nil
        return (parsed, JSONParser.validate(input) == nil)
    }

    @Test func theSuiteIsThere() {
        #expect(Self.cases("y_").count == 95)
        #expect(Self.cases("n_").count == 188)
        #expect(Self.cases("i_").count == 35)
    }

    @Test(arguments: cases("y_"))
    func y_IsAccepted(name: String) {
        let verdict = Self.verdicts(name)
        #expect(verdict.parsed, "parse refused \(name)")
        #expect(verdict.validated, "validate refused \(name)")
    }

    @Test(arguments: cases("n_"))
    func n_IsRefused(name: String) {
        let verdict = Self.verdicts(name)
        #expect(!verdict.parsed, "parse accepted \(name)")
        #expect(!verdict.validated, "validate accepted \(name)")
    }

    @Test(arguments: cases("i_"))
    func i_IsAnsweredOneWayByBoth(name: String) {
        let verdict = Self.verdicts(name)
        #expect(verdict.parsed == verdict.validated, "\(name): parse \(verdict.parsed), validate \(verdict.validated)")
    }
}
