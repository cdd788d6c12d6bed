import Foundation
import MockdCore
import Testing

/// `pattern` was ignored by the example generator ("string" for `^\d{3}$`): generated strings
/// now match the patterns API documents use, checked here by Foundation's own regular
/// expressions (not the Swift Regex that mockd checks its strings with).
@Suite("OpenAPI patterns in generated answers")
struct PatternSampleTests {
    static let patterns = [
        #"^[a-z0-9-]+$"#, #"^\d{3}-\d{4}$"#, #"^[A-Z]{2}$"#, #"^(0|[1-9][0-9]*)$"#, #"^\+?[1-9]\d{1,14}$"#,
        #"^[0-9a-fA-F]{24}$"#, #"^v\d+\.\d+\.\d+(-[a-z]+)?$"#, #"^(https?|ftp)://[^\s/$.?#][^\s]*$"#, #"[a-z]{3,5}"#,
        #"^(?<year>\d{4})-(?:0[1-9]|1[0-2])$"#, #"^\u00e9+$"#, #"^[^@\s]+@[^@\s]+\.[a-z]{2,}$"#, #"^\w+( \w+)*$"#,
        #"^[A-Z][a-z]*\.?$"#, #"^\p{L}+$"#, #"^[\w.-]{1,64}$"#, #"^a{2}b{1,}c{0,1}$"#, #"^\x41\/\-$"#,
    ]

    static var document: String {
        var text = "openapi: 3.1.0\ninfo: {title: patterns, version: \"1\"}\npaths:\n"
        for (index, pattern) in patterns.enumerated() {
            let quoted = "'" + pattern.replacingOccurrences(of: "'", with: "''") + "'"
            text += """
                  /p\(index):
                    get:
                      responses:
                        '200':
                          description: a string
                          content:
                            application/json:
                              schema: {type: string, pattern: \(quoted)}

                """
        }
        text += """
              /long:
                get:
                  responses:
                    '200':
                      description: longer than the shortest match
                      content:
                        application/json:
                          schema: {type: string, pattern: '^[a-z]+$', minLength: 6, maxLength: 8}
              /lookahead:
                get:
                  responses:
                    '200':
                      description: a condition, not text
                      content:
                        application/json:
                          schema: {type: string, pattern: '^(?=.*\\d)[a-z\\d]{8,}$'}

            """
        return text
    }

    static func string(_ answer: Resolution) throws -> String {
        guard case .string(let text) = try answer.json() else { throw CocoaError(.coderValueNotFound) }
        return text
    }

    static func matches(_ pattern: String, _ text: String) throws -> Bool {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    @Test func theFixedAndTheRandomAnswerMatchEachPattern() throws {
        try withDocument(Self.document) { api in
            for (index, pattern) in Self.patterns.enumerated() {
                let fixed = try Self.string(api.answer("GET", "/p\(index)"))
                let fixedMatches = try Self.matches(pattern, fixed)
                #expect(fixedMatches, "\(pattern): \(fixed)")
                for seed in 1...5 {
                    let random = try Self.string(api.answer("GET", "/p\(index)", headers: [("Prefer", "dynamic=true, seed=\(seed)")]))
                    let randomMatches = try Self.matches(pattern, random)
                    #expect(randomMatches, "\(pattern) seed \(seed): \(random)")
                }
            }
            let long = try Self.string(api.answer("GET", "/long"))
            #expect(long.count >= 6 && long.count <= 8 && long.allSatisfy(\.isLowercase), "\(long)")
        }
    }

    @Test func aPatternThatStatesAConditionFallsBackWithAWarning() throws {
        try withDocument(Self.document) { api in
            let warnings = api.diagnostics.map(\.description).filter { $0.contains("does not generate strings") }
            #expect(warnings.count == 1 && warnings[0].contains("/paths/~1lookahead/"), "\(warnings)")
            let plain = try Self.string(api.answer("GET", "/lookahead"))
            #expect(plain == "string")
        }
    }
}
