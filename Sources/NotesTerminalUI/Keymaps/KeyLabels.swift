/// Keys as the help screen and the hint bar name them, from the keys themselves: a binding's
/// label can never name a key it does not bind.
extension Key {
    var label: String {
        switch self {
        case .character(let character): String(character)
        case .control(let letter): "Ctrl-\(letter.uppercased())"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .controlHome: "Ctrl-Home"
        case .controlEnd: "Ctrl-End"
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .resize: "resize"
        }
    }

    /// The arrows, which are written as a pair without a space ("↑↓").
    var isArrow: Bool { [.up, .down, .left, .right].contains(self) }
}

extension Array where Element == Key {
    /// "↑↓ j k": the labels with a space between, arrows side by side.
    var label: String {
        var text = ""
        for (index, key) in enumerated() {
            if index > 0 && !(key.isArrow && self[index - 1].isArrow) { text += " " }
            text += key.label
        }
        return text
    }
}

extension KeyBinding {
    /// All its keys, as the help names them.
    var keyLabel: String { keys.map(\.key).label }

    /// The hint bar's entry: the first keys and the label; nil when the bar does not show it.
    var hintText: (keys: String, label: String)? {
        guard let hint, isListed else { return nil }
        return (Array(keys.map(\.key).prefix(hint.keyCount ?? keys.count)).label, hint.label)
    }
}
