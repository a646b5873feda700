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
    private static let variationSelector16: Unicode.Scalar = "\u{FE0F}"

    /// Makes `wcwidth` understand UTF-8: the user's locale when it is a UTF-8 one, else `C.UTF-8`.
    /// Call once at start-up, before measuring anything.
    public static func configureLocale() {
        let chosen = setlocale(LC_ALL, "").map { String(cString: $0) } ?? ""
        if !chosen.uppercased().contains("UTF-8") && !chosen.uppercased().contains("UTF8") {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    /// Columns of one character (a grapheme cluster): its widest scalar, at most two.
    public static func of(_ character: Character) -> Int {
        var widest = 0
        for scalar in character.unicodeScalars {
            if scalar == variationSelector16 { return 2 }
            widest = max(widest, Int(cterminal_wcwidth(scalar.value)))
        }
        return min(widest, 2)
    }

    /// Columns of a whole string.
    public static func of(_ string: String) -> Int {
        string.reduce(0) { $0 + of($1) }
    }
}
