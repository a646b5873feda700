/// Which terminfo entry the app starts ncurses with. `TERM` names the terminal, but newer
/// terminals (xterm-kitty, alacritty, wezterm, foot, ghostty) often have no entry on the machine,
/// and true colour (`COLORTERM=truecolor`) needs a `-direct` entry that `TERM` rarely names.
public struct TerminalType: Equatable, Sendable {
    public let name: String
    /// One line for the user when `name` is not what `TERM` says and it matters to them.
    public let notice: String?

    static let fallback = "xterm-256color"

    /// - Parameter hasTerminfo: whether the terminfo database has an entry of that name.
    /// - Throws: `TerminalUnavailable` when neither `TERM` nor the fallback has an entry.
    public static func choose(for environment: [String: String], hasTerminfo: (String) -> Bool) throws -> TerminalType {
        let term = environment["TERM"] ?? ""
        let trueColor = ["truecolor", "24bit"].contains(environment["COLORTERM"]?.lowercased() ?? "")
        if trueColor, !term.hasSuffix("-direct"), let base = term.split(separator: "-").first {
            let direct = "\(base)-direct"
            if hasTerminfo(direct) { return TerminalType(name: direct, notice: nil) }
        }
        if hasTerminfo(term) { return TerminalType(name: term, notice: nil) }
        guard hasTerminfo(fallback) else {
            throw TerminalUnavailable(description: "TERM=\(term) has no terminfo entry on this machine: install one (the ncurses-term package has most) or run with TERM=xterm-256color")
        }
        return TerminalType(name: fallback, notice: "TERM=\(term) is unknown here, so the app uses \(fallback); install its terminfo (ncurses-term) to silence this")
    }
}
