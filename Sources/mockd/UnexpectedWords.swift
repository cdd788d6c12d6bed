import ArgumentParser
import MockdCore

/// What `mockd serve` says about a word it takes no option or command for.
enum UnexpectedWords {
    /// An unknown option leaves its value behind, which would be taken for a command
    /// (`mockd -x 8080`: "'8080' is not a mockd command"): name the option instead.
    static func strayOption(before word: String, arguments: [String] = CommandLine.arguments) -> String? {
        guard let index = arguments.dropFirst().firstIndex(of: word), index > 1 else { return nil }
        let option = arguments[index - 1]
        guard option.hasPrefix("-"), !flags.contains(option) else { return nil }
        return "'\(option)' is not an option of mockd serve (so '\(word)' was left over); every option: mockd serve --help"
    }

    /// Options that take no value, so a word after one is not its value: serve's flags and the
    /// root's (`--version`), as the parser declares them.
    static let flags = Set(
        (DeclaredOptions(of: ServeCommand.self).options + DeclaredOptions(of: Mockd.self).options)
            .filter { $0.kind == .flag }.flatMap(\.spellings))

    /// `'chek' is not a mockd command; did you mean check? The commands: serve, check, routes, health`
    static func notACommand(_ word: String) -> String {
        let commands = Mockd.configuration.subcommands.map { $0.configuration.commandName ?? "" }
        let near = commands.first { EditDistance.bounded(Array(word.lowercased().utf8), $0.utf8, bound: 2) != nil }
        return "'\(word)' is not a mockd command" + (near.map { "; did you mean \($0)?" } ?? ".")
            + " The commands: \(commands.joined(separator: ", ")) (serve is the default: mockd --root DIR --port N)"
    }
}
