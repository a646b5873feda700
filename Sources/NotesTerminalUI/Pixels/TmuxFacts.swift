import Foundation

/// What detection needs from tmux when the app runs inside it: tmux answers device attributes
/// itself and drops the kitty query, so the outer terminal is known only from tmux's view of its
/// client, and pictures reach it only through passthrough.
public struct TmuxFacts: Equatable, Sendable {
    /// tmux's `allow-passthrough` option for the app's pane.
    public var allowsPassthrough: Bool
    /// The outer terminal's `TERM` (`#{client_termname}`).
    public var clientTerminal: String
    /// The features tmux found in the outer terminal (`#{client_termfeatures}`; `sixel` among them).
    public var clientFeatures: [String]
    public var pane: TmuxPane

    public init(allowsPassthrough: Bool, clientTerminal: String = "", clientFeatures: [String] = [], pane: TmuxPane = TmuxPane(top: 0, left: 0)) {
        self.allowsPassthrough = allowsPassthrough
        self.clientTerminal = clientTerminal
        self.clientFeatures = clientFeatures
        self.pane = pane
    }

    /// The format `tmux display -p` is asked to fill in; `init(displayed:)` reads its answer.
    public static let format = "#{allow-passthrough}|#{client_termname}|#{client_termfeatures}|#{pane_top}|#{pane_left}"

    /// Reads tmux's answer to `format`; nil when it is not one.
    public init?(displayed line: String) {
        let fields = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 5, let top = Int(fields[3]), let left = Int(fields[4]) else { return nil }
        allowsPassthrough = ["on", "1", "all"].contains(fields[0])
        clientTerminal = fields[1]
        clientFeatures = fields[2].split(separator: ",").map(String.init)
        pane = TmuxPane(top: top, left: left)
    }
}
