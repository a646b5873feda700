import CTerminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many terminal columns text takes, from the C library's `wcwidth`: CJK ideographs and most
/// emoji take two, combining marks none. `String.count` counts characters, not columns, and would
/// misalign every line that holds such text.
public enum DisplayWidth {
    /// Columns between tab stops, as terminals set them.
    public static let tabWidth = 8

    private static let variationSelector16: Unicode.Scalar = "\u{FE0F}"
    private static let zeroWidthJoiner: Unicode.Scalar = "\u{200D}"
    private static let regionalIndicators: ClosedRange<UInt32> = 0x1F1E6...0x1F1FF

    /// Makes `wcwidth` understand UTF-8: the user's locale when it is a UTF-8 one, else `C.UTF-8`.
    /// Call at start-up, before measuring anything (the terminal layer keeps this locale). Only the
    /// first call sets it: the locale is the process's, and setting it again while another thread
    /// measures (tests run apps side by side) passed through "C", where `…` has no width.
    public static func configureLocale() {
        _ = localeConfigured
    }

    private static let localeConfigured: Void = {
        let chosen = setlocale(LC_ALL, "").map { String(cString: $0) } ?? ""
        if !chosen.uppercased().contains("UTF-8") && !chosen.uppercased().contains("UTF8") {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
    }()

    /// Columns of one character (a grapheme cluster) as terminals draw it: a flag or an emoji with
    /// VS16 takes two; a ZWJ sequence (👨‍👩‍👧) the columns of its parts (see `joinedParts`); else
    /// its widest scalar, at most two. A control character counts as what `visible` shows for it.
    public static func of(_ character: Character) -> Int {
        if character == "\t" { return tabWidth }
        if let shown = controlPicture(of: character) { return shown.count }
        if let parts = joinedParts(of: character) { return parts.reduce(0) { $0 + of($1) } }
        var widest = 0
        for scalar in character.unicodeScalars {
            if scalar == variationSelector16 || regionalIndicators.contains(scalar.value) { return 2 }
            widest = max(widest, Int(cterminal_wcwidth(scalar.value)))
        }
        return min(widest, 2)
    }

    /// The parts of a ZWJ sequence, each emoji with the joiner after it ("👨\u{200D}", "👩\u{200D}",
    /// "👧"); nil for any other character. ncurses keeps one spacing character per cell, so it
    /// draws a sequence as these parts side by side, as tmux, xterm and VTE show it: laying it
    /// out the same way keeps every part on screen (a single 2-column cell kept only the first).
    public static func joinedParts(of character: Character) -> [Character]? {
        let scalars = Array(character.unicodeScalars)
        guard scalars.count > 2, scalars.dropLast().contains(zeroWidthJoiner) else { return nil }
        var parts: [Character] = []
        var current = String.UnicodeScalarView()
        for scalar in scalars {
            current.append(scalar)
            if scalar == zeroWidthJoiner {
                parts.append(Character(String(current)))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { parts.append(Character(String(current))) }
        return parts.count > 1 ? parts : nil
    }

    /// Columns of a whole string laid out from column 0 (tabs to their stops).
    public static func of(_ string: String) -> Int {
        string.reduce(0) { column, character in column + advance(of: character, atColumn: column) }
    }

    /// Columns `character` takes when it starts at `column` of a line: a tab reaches the next stop.
    public static func advance(of character: Character, atColumn column: Int) -> Int {
        character == "\t" ? tabWidth - column % tabWidth : of(character)
    }

    /// What the screen shows for `character` at `column`: the character itself, spaces for a tab,
    /// the parts of a ZWJ sequence, or a control character's caret form (`^[` for ESC, `^?` for DEL, `M-^[` for CSI), so no
    /// title, body or file name can send escape sequences to the terminal.
    public static func visible(_ character: Character, atColumn column: Int) -> [Character] {
        if character == "\t" { return Array(repeating: " ", count: advance(of: character, atColumn: column)) }
        return controlPicture(of: character).map(Array.init) ?? joinedParts(of: character) ?? [character]
    }

    /// The caret form of a character made of control characters (C0, DEL, C1), nil for others.
    private static func controlPicture(of character: Character) -> String? {
        guard character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return character.unicodeScalars.map { scalar -> String in
            switch scalar.value {
            case 0x00..<0x20: return "^" + String(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F: return "^?"
            case 0x80..<0xA0: return "M-^" + String(Unicode.Scalar(UInt8(scalar.value - 0x80 + 0x40)))
            default: return String(scalar)
            }
        }.joined()
    }
}
