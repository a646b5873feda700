/// Picks how previews are drawn, from what was asked (`--images`), the environment and the
/// terminal's replies: a pure function, so every terminal's case is tested with scripted replies.
/// The environment only suggests; the terminal's answers decide (a `TERM_PROGRAM` inherited by a
/// shell in another terminal must not send kitty sequences to xterm).
public enum GraphicsDetection {
    /// What was chosen, and one line for the user when it is not what they may expect.
    public struct Decision: Equatable, Sendable {
        public var graphics: PreviewGraphics
        public var notice: String?
        /// The terminal was asked and had not answered when the wait ended: its replies may
        /// still come, and must not be read as keys.
        public var awaitsLateReplies = false

        public init(graphics: PreviewGraphics, notice: String? = nil) {
            self.graphics = graphics
            self.notice = notice
        }
    }

    /// Whether the terminal must be asked (`TerminalQueries`) before `decide`: for `auto` outside
    /// tmux, and for any protocol to learn the cell size. Inside tmux tmux answers for itself.
    /// The Linux console draws no pictures and would print the kitty query as text.
    public static func needsQueries(_ mode: ImageMode, environment: [String: String]) -> Bool {
        guard !isInsideTmux(environment), environment["TERM"] != "linux" else { return false }
        switch mode {
        case .none, .symbols: return false
        case .auto, .kitty, .sixel, .iterm2: return true
        }
    }

    public static func isInsideTmux(_ environment: [String: String]) -> Bool {
        !(environment["TMUX"] ?? "").isEmpty
    }

    /// - Parameters:
    ///   - replies: the terminal's answers; nil when it answered nothing within the timeout.
    ///   - windowCellPixels: the cell size from `TIOCGWINSZ`, when the terminal fills it in.
    ///   - tmux: tmux's answers inside tmux (nil when tmux could not be asked).
    public static func decide(_ mode: ImageMode, environment: [String: String], replies: TerminalReplies?,
                              windowCellPixels: PixelSize? = nil, tmux: TmuxFacts? = nil) -> Decision {
        let cell = replies?.cellPixels ?? windowCellPixels ?? PreviewGraphics.typicalCell
        switch mode {
        case .none: return Decision(graphics: PreviewGraphics(kind: .none))
        case .symbols: return Decision(graphics: .symbols)
        case .auto, .kitty, .sixel, .iterm2: break
        }
        if isInsideTmux(environment) { return decideInsideTmux(mode, environment: environment, tmux: tmux, cell: cell) }
        if let forced = PixelProtocol(rawValue: mode.rawValue) {
            return Decision(graphics: PreviewGraphics(kind: .pixels(forced), cellPixels: cell))
        }
        if environment["TERM"] == "linux" { return Decision(graphics: .symbols) }
        guard let replies, replies.isComplete else {
            return Decision(graphics: .symbols,
                            notice: "images as symbols: the terminal did not answer its queries in time (--images kitty, sixel or iterm2 forces one)")
        }
        if replies.kittyGraphics { return Decision(graphics: PreviewGraphics(kind: .pixels(.kitty), cellPixels: cell)) }
        if speaksITerm2(environment) { return Decision(graphics: PreviewGraphics(kind: .pixels(.iterm2), cellPixels: cell)) }
        if replies.sixel { return Decision(graphics: PreviewGraphics(kind: .pixels(.sixel), cellPixels: cell)) }
        if suggestsKitty(term: environment["TERM"] ?? "", environment: environment) {
            return Decision(graphics: .symbols, notice: "images as symbols: the environment names a kitty-protocol terminal, but it did not answer the kitty graphics query")
        }
        return Decision(graphics: .symbols)
    }

    /// Inside tmux, pictures pass through to the outer terminal only when `allow-passthrough` is
    /// on; the outer terminal is known from tmux's client (its `TERM` and features) and the
    /// variables the environment kept from it. Why there are no pictures is said only when the
    /// outer terminal could draw them (most tmux sessions run where it cannot: no news there).
    private static func decideInsideTmux(_ mode: ImageMode, environment: [String: String], tmux: TmuxFacts?, cell: PixelSize) -> Decision {
        let outer = PixelProtocol(rawValue: mode.rawValue) ?? tmux.flatMap { outerProtocol(of: $0, environment: environment) }
            ?? (suggestsKitty(term: "", environment: environment) ? .kitty : nil)
        guard let outer else { return Decision(graphics: .symbols) }
        guard let tmux else {
            return Decision(graphics: .symbols, notice: "images as symbols: tmux did not say whether allow-passthrough is on")
        }
        guard tmux.allowsPassthrough else {
            return Decision(graphics: .symbols, notice: "images as symbols: tmux's allow-passthrough is off (tmux set -g allow-passthrough on)")
        }
        return Decision(graphics: PreviewGraphics(kind: .pixels(outer), cellPixels: cell, passthrough: tmux.pane),
                        notice: "images through tmux passthrough (\(outer.rawValue))")
    }

    /// The protocol of the terminal tmux's client runs in, as far as tmux and the environment tell.
    private static func outerProtocol(of tmux: TmuxFacts, environment: [String: String]) -> PixelProtocol? {
        if suggestsKitty(term: tmux.clientTerminal, environment: environment) { return .kitty }
        if speaksITerm2(environment) { return .iterm2 }
        if tmux.clientFeatures.contains("sixel") { return .sixel }
        return nil
    }

    /// Terminals whose own protocol is iTerm2's: iTerm2, WezTerm (whose kitty support is partial),
    /// mintty; `LC_TERMINAL` survives ssh.
    private static func speaksITerm2(_ environment: [String: String]) -> Bool {
        ["iTerm.app", "WezTerm", "mintty"].contains(environment["TERM_PROGRAM"] ?? "")
            || environment["LC_TERMINAL"] == "iTerm2"
            || environment.keys.contains { $0.hasPrefix("WEZTERM_") }
    }

    /// Terminals that speak kitty's graphics protocol: kitty, Ghostty, Konsole (VTE does not).
    private static func suggestsKitty(term: String, environment: [String: String]) -> Bool {
        environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || term == "xterm-ghostty"
            || environment["TERM_PROGRAM"] == "ghostty" || environment["KONSOLE_VERSION"] != nil
    }
}
