import CMicroHTTPD

/// The libmicrohttpd this process runs on, read from the library itself (`MHD_get_version`):
/// mockd builds against either 0.9.75 (Debian 12) or 1.0.x (Homebrew, Debian 13), and what a
/// version can be asked for is decided by the library loaded, not by the header compiled.
package struct MicroHTTPDVersion: Sendable, Equatable, CustomStringConvertible {
    /// As the library spells it: "0.9.75", "1.0.1".
    package let text: String
    /// Its numeric parts; a part that is not a number counts as 0.
    package let parts: [Int]

    package init(_ text: String) {
        self.text = text
        parts = text.split(separator: ".").map { Int($0) ?? 0 }
    }

    /// The library loaded now.
    package static let running = MicroHTTPDVersion(String(cString: cmhd_library_version()))

    package var description: String { text }

    /// Whether this is `minimum` or later ([0, 9, 77]); missing parts count as 0.
    package func isAtLeast(_ minimum: [Int]) -> Bool {
        for index in 0..<max(parts.count, minimum.count) {
            let mine = index < parts.count ? parts[index] : 0
            let wanted = index < minimum.count ? minimum[index] : 0
            if mine != wanted { return mine > wanted }
        }
        return true
    }

    /// `MHD_OPTION_CLIENT_DISCIPLINE_LVL` exists from 0.9.77 on; older libraries refuse to start
    /// a daemon given an option they do not know.
    package var hasClientDiscipline: Bool { isAtLeast([0, 9, 77]) }
}
