/// One screen line of wrapped text: which characters it shows.
public struct WrappedLine: Equatable, Sendable {
    public var start: Int
    public var end: Int
    public var text: String
}

/// Wraps short text whole (help lines, the migration log) to a width in terminal columns,
/// measured with `DisplayWidth` (tabs to their stops from the start of each screen line), at
/// spaces when it can and anywhere when a word is longer than the line. A note's body is never
/// wrapped whole: its screens lay out only what they show through `TextLayout`, which wraps the
/// same way.
public enum TextWrapper {
    public static func wrap(_ characters: [Character], width: Int) -> [WrappedLine] {
        let layout = TextLayout(characters, width: width)
        return layout.lines(from: layout.firstLine, count: .max).map { line in
            WrappedLine(start: line.start, end: line.end, text: layout.string(of: line))
        }
    }
}
