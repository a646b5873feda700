import Foundation

/// Text from notes, files or the user, made safe to print: control characters (ESC, BEL, DEL,
/// the C1 range) are shown visibly instead of reaching the terminal, where a title like
/// `ESC]0;…BEL` would retitle the window, clear the screen or write the clipboard. The command
/// line prints with it, and exports write titles with it, so a file shown with `cat` is as safe.
public enum TerminalText {
    /// For text shown as it is (a note's body): line breaks and tabs stay, every other control
    /// character is shown in caret notation (`^[` for ESC, `^?` for DEL) or as `<U+009B>`.
    public static func visible(_ text: String) -> String {
        escape(text) { scalar in
            switch scalar.value {
            case 0x0A, 0x09: nil
            default: caretNotation(scalar)
            }
        }
    }

    /// For one field of one line (a list row, a message): tabs, line breaks and backslashes are
    /// written as `\t`, `\n`, `\r` and `\\`, so fields split on tabs and lines stay intact; other
    /// control characters as in `visible`.
    public static func field(_ text: String) -> String {
        escape(text) { scalar in
            switch scalar.value {
            case 0x09: "\\t"
            case 0x0A: "\\n"
            case 0x0D: "\\r"
            case 0x5C: "\\\\"
            default: caretNotation(scalar)
            }
        }
    }

    /// `^@`…`^_` for C0 controls, `^?` for DEL, `<U+0080>`…`<U+009F>` for C1 controls, nil for
    /// everything else.
    private static func caretNotation(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00..<0x20: "^" + String(UnicodeScalar(UInt8(scalar.value) + 0x40))
        case 0x7F: "^?"
        case 0x80...0x9F: "<U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))>"
        default: nil
        }
    }

    private static func escape(_ text: String, replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
