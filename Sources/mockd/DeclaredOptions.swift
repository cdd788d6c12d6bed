import ArgumentParser
#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif

/// The options a command declares, as swift-argument-parser itself describes them: the JSON
/// `--experimental-dump-help` prints, which `_dumpHelp()` returns. The parser has no other public
/// view of a command's options; reading this one, what mockd derives from them (the `MOCKD_*`
/// variables, which words are flags) follows the declarations without a second list to keep.
struct DeclaredOptions {
    struct Option: Decodable {
        enum Kind: String, Decodable {
            case positional, option, flag
        }

        struct Name: Decodable {
            /// `long`, `short` or `longWithSingleDash`.
            let kind: String
            let name: String
        }

        let kind: Kind
        let names: [Name]?
        /// The help text.
        let abstract: String?
        let isRepeating: Bool

        var longName: String? { names?.first { $0.kind == "long" }?.name }

        /// How the command line writes it: `--port`, `-p`.
        var spellings: [String] { (names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name } }
    }

    let options: [Option]

    init(of command: any ParsableArguments.Type) {
        struct Dump: Decodable {
            struct Command: Decodable { let arguments: [Option]? }
            let command: Command
        }
        do {
            options = try JSONDecoder().decode(Dump.self, from: Data(command._dumpHelp().utf8)).command.arguments ?? []
        } catch {
            // Only a swift-argument-parser that changed its format gets here; every CLI test would fail.
            preconditionFailure("swift-argument-parser's description of \(command) did not decode: \(error)")
        }
    }
}
