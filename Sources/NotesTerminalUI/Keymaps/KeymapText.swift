/// The help screen's lines and the hint bar's entries of a keymap: both read from its bindings,
/// never written by hand.
extension Keymap {
    /// The widest key column of the help (a longer label is followed by two spaces).
    static var keyColumnLimit: Int { 20 }

    /// The heading, then one entry per listed binding: its keys, padded to the section's widest
    /// (up to `keyColumnLimit`), then what they do. `ScreenLayout` sets entries side by side
    /// where they fit.
    var helpLines: [String] {
        let listed = bindings.filter(\.isListed)
        let column = min(listed.map { DisplayWidth.of($0.keyLabel) }.max() ?? 0, Self.keyColumnLimit) + 2
        return [title] + listed.map { binding in
            let keys = binding.keyLabel
            return "  " + keys + String(repeating: " ", count: max(2, column - DisplayWidth.of(keys))) + binding.help
        }
    }

    /// The hint bar's entries, in the table's order, then what other keys do.
    var hints: [(keys: String, label: String)] {
        bindings.compactMap(\.hintText) + (otherKeys.flatMap { other in other.hint.map { (other.name, $0) } }.map { [$0] } ?? [])
    }
}
