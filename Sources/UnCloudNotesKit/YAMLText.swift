/// Text as a YAML scalar on one line, for the front matter the app writes (the mirror's note
/// files, the Markdown export): plain when YAML reads it back as the same string, else double-
/// quoted with only what YAML requires escaped, so text in any script (emoji included) is
/// written as it is and stays readable in the file.
public enum YAMLText {
    /// Words YAML 1.1 reads as booleans or null when unquoted.
    private static let reserved: Set<String> = ["y", "n", "yes", "no", "true", "false", "on", "off", "null"]
    private static let punctuation = Set(" -_.,()/'!?&+".unicodeScalars)

    /// The text plain when that reads back as itself (a letter first, then letters, digits, marks,
    /// symbols and harmless punctuation, at most 60 scalars), else double-quoted.
    public static func scalar(_ text: String) -> String {
        plain(text) ?? doubleQuoted(text)
    }

    /// The text between double quotes: `"` and `\` escaped, line breaks and other characters
    /// YAML does not allow raw (controls, the byte-order mark, line and paragraph separators)
    /// as escapes; everything else as it is.
    public static func doubleQuoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            default:
                if mustEscape(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    quoted += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }

    private static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    private static func plain(_ text: String) -> String? {
        if text.isEmpty { return "''" }
        let scalars = text.unicodeScalars
        guard scalars.count <= 60, let first = scalars.first, let last = scalars.last, isLetter(first), last != " ",
              scalars.allSatisfy({ isLetter($0) || isMarkOrDigit($0) || isPlainSymbol($0) || punctuation.contains($0) }),
              !reserved.contains(text.lowercased()) else { return nil }
        return text
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }

    /// Symbols such as ☕ of the Basic Multilingual Plane; those beyond (🎉) are quoted, as
    /// YAML 1.1's printable set is read differently by different readers.
    private static func isPlainSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .otherSymbol, .mathSymbol, .currencySymbol:
            (0xA0...0xD7FF).contains(scalar.value) || ((0xE000...0xFFFD).contains(scalar.value) && scalar.value != 0xFEFF)
        default: false
        }
    }

    private static func isMarkOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber: true
        default: false
        }
    }
}
