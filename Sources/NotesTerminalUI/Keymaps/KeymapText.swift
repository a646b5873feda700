/// The help screen's lines and the hint bar's entries of a keymap: both read from its bindings,
/// never written by hand.
extension Keymap {
    /// The width of the help's key column (a longer label is followed by two spaces).
    static var keyColumn: Int { 16 }

    /// The heading, then one line per listed binding: its keys, then what they do.
    var helpLines: [String] {
        [title] + bindings.filter(\.isListed).map { binding in
            let keys = binding.keyLabel
            let gap = max(2, Self.keyColumn - DisplayWidth.of(keys))
            return "  " + keys + String(repeating: " ", count: gap) + binding.help
        }
    }

    /// The hint bar's entries, in the table's order, then what other keys do.
    var hints: [(keys: String, label: String)] {
        bindings.compactMap(\.hintText) + (otherKeys.flatMap { other in other.hint.map { (other.name, $0) } }.map { [$0] } ?? [])
    }
}
