/// "1 file", "3 routes", "0 errors": the counts of the startup line, systemd's status line and
/// `mockd check`, written one way.
package enum Counted {
    package static func text(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
