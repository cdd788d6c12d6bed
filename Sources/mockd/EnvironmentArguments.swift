import ArgumentParser
#if canImport(FoundationEssentials)
    import FoundationEssentials  // swift-foundation's core, without ICU (Linux)
#else
    import Foundation
#endif

/// The `MOCKD_*` variables, as the arguments they stand for: the one place mockd reads its
/// environment. An option reads the variable its help names (`[env: MOCKD_PORT]`), which is
/// `MOCKD_` and the option's long name in capitals (`--max-body-bytes`: `MOCKD_MAX_BODY_BYTES`),
/// so `--help` cannot name a variable that is not read, nor leave out one that is.
///
/// Each variable set for an option the command line does not give becomes `--name=value`, put
/// before the typed arguments, and the whole is parsed at once: a value from the environment is
/// converted, checked and reported as a typed one is, a typed option wins, and an option left
/// unset keeps its property's initial value, the one default `--help` shows. An empty variable is
/// unset. A flag's variable is a boolean (`1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`);
/// a repeatable option's is comma-separated.
struct EnvironmentArguments {
    /// What to parse: the command line with the variables' arguments after the subcommand's name.
    let arguments: [String]
    /// The options the environment gave, with their variables, to name in an error.
    let given: [(option: String, variable: String)]

    init(_ commandLine: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        // Most runs set no variable: the options are then not even looked at.
        guard environment.contains(where: { $0.key.hasPrefix("MOCKD_") && !$0.value.isEmpty }),
            let (command, words) = Self.command(of: commandLine)
        else {
            (arguments, given) = (commandLine, [])
            return
        }
        let typed = commandLine.dropFirst(words)
        let declared = DeclaredOptions(of: command).options.compactMap(Declared.init)
        let typedSettings = Self.settings(in: typed, declared: declared)
        let set = { (variable: String) in environment[variable].flatMap { $0.isEmpty ? nil : $0 } }
        // `--no-routes` and `--routes DIR` are one setting: typing either leaves both variables
        // unread, and MOCKD_NO_ROUTES=1 wins over MOCKD_ROUTES, which the Docker image sets.
        var refused: Set<String> = []
        for option in declared where option.kind == .flag && option.variable == Self.variable(for: option.name) {
            if option.name.hasPrefix("no-"), let text = set(option.variable), try Self.bool(text, option.variable) {
                refused.insert(option.setting)
            }
        }
        var added: [String] = []
        var given: [(option: String, variable: String)] = []
        for option in declared where !typedSettings.contains(option.setting) {
            guard let text = set(option.variable) else { continue }
            switch option.kind {
            case .flag:
                let on = try Self.bool(text, option.variable)
                // The inverted spelling (`--no-watch`) shares its flag's variable (MOCKD_WATCH).
                let inverted = option.variable != Self.variable(for: option.name)
                guard on != inverted else { continue }
                added.append("--" + option.name)
            case .option:
                guard !refused.contains(option.setting) else { continue }
                let values = option.isRepeating ? text.split(separator: ",").map(String.init) : [text]
                // `--name=value`: a value that starts with `-` is still the option's value.
                added += values.map { "--\(option.name)=\($0)" }
            case .positional:
                continue
            }
            given.append((option.name, option.variable))
        }
        arguments = Array(commandLine.prefix(words)) + added + typed
        self.given = given
    }

    /// `max-body-bytes` → `MOCKD_MAX_BODY_BYTES`
    static func variable(for option: String) -> String {
        "MOCKD_" + option.uppercased().replacing("-", with: "_")
    }

    /// A variable read for itself, not for an option (`mockd health` sends MOCKD_ADMIN_TOKEN).
    static func value(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A line for a usage error about an option the environment gave: the parser's message names
    /// the option, which the user never typed.
    func explaining(_ message: String) -> String? {
        let error = message.prefix { $0 != "\n" }
        let named = given.filter { Self.isAbout(error, "--" + $0.option) }
        guard !named.isEmpty else { return nil }
        return "From the environment: " + named.map { "--\($0.option) is \($0.variable)" }.joined(separator: ", ")
    }

    /// An option of the command that reads a variable.
    private struct Declared {
        let name: String
        let variable: String
        let kind: DeclaredOptions.Option.Kind
        let isRepeating: Bool
        /// `--port` and `-p`.
        let spellings: [String]
        /// `routes` for `--routes` and `--no-routes`, `watch` for `--watch` and `--no-watch`.
        let setting: String

        init?(_ option: DeclaredOptions.Option) {
            guard let name = option.longName, let help = option.abstract, let marker = help.firstRange(of: "[env: ") else { return nil }
            let variable = String(help[marker.upperBound...].prefix { $0.isUppercase || $0.isNumber || $0 == "_" })
            let setting = name.hasPrefix("no-") ? String(name.dropFirst(3)) : name
            guard variable == EnvironmentArguments.variable(for: name) || variable == EnvironmentArguments.variable(for: setting) else {
                // A help naming another option's variable would promise what is not read.
                assertionFailure("--\(name)'s help names \(variable), not \(EnvironmentArguments.variable(for: name))")
                return nil
            }
            (self.name, self.variable, self.setting) = (name, variable, setting)
            (kind, isRepeating, spellings) = (option.kind, option.isRepeating, option.spellings)
        }
    }

    /// The command the words name and how many words name it; nil when they ask for help or the
    /// version, which read no option.
    private static func command(of commandLine: [String]) -> (any ParsableCommand.Type, Int)? {
        let asking: Set<String> = ["-h", "--help", "--version", "--experimental-dump-help"]
        guard commandLine.first != "help", !commandLine.contains(where: asking.contains) else { return nil }
        if let word = commandLine.first,
            let command = Mockd.configuration.subcommands.first(where: { $0.configuration.commandName == word })
        {
            return (command, 1)
        }
        return Mockd.configuration.defaultSubcommand.map { ($0, 0) }
    }

    /// The settings the typed arguments give (`--port 1`, `--port=1`, `-p 1`, `-p1`), up to a `--`.
    private static func settings(in typed: ArraySlice<String>, declared: [Declared]) -> Set<String> {
        var setting: [String: String] = [:]
        for option in declared { for spelling in option.spellings { setting[spelling] = option.setting } }
        var found: Set<String> = []
        for argument in typed {
            if argument == "--" { break }
            guard argument.hasPrefix("-") else { continue }
            let spellings =
                argument.hasPrefix("--")
                ? [String(argument.prefix { $0 != "=" })]
                : argument.dropFirst().prefix { $0 != "=" }.map { "-\($0)" }  // `-p1` and grouped short flags
            for spelling in spellings { if let name = setting[spelling] { found.insert(name) } }
        }
        return found
    }

    private static func bool(_ text: String, _ variable: String) throws -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ValidationError("\(variable)=\(text): expected true or false")
        }
    }

    /// Whether an error line is about the option written `spelling`: the parser names it in
    /// quotes (`'--port <port>'`), mockd's checks start with it (`--port 70000: expected 0-65535`).
    /// Not any mention: `mockd chek` is answered with an example that has `--port` in it.
    private static func isAbout(_ error: Substring, _ spelling: String) -> Bool {
        error.contains("'\(spelling) <") || error.contains("'\(spelling)'") || error.hasPrefix("Error: \(spelling) ")
            || error.hasPrefix("Error: \(spelling):")
    }
}
