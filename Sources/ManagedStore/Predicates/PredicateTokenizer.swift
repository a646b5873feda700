/// A lexical token of the predicate format, with the character offset it starts at.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        case variable(String)
        case string(String)
        case integer(Int64)
        case real(Double)
        case symbol(String)
        case end
    }

    var kind: Kind
    var position: Int
}

/// Why a predicate or expression format could not be parsed; `position` counts characters from 0.
public struct PredicateParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text that was parsed.
    public var format: String
    /// Where parsing stopped, in characters from 0.
    public var position: Int
    /// What was expected there.
    public var message: String

    /// One line quoting the format and the position.
    public var description: String {
        "cannot parse \"\(format)\" at position \(position): \(message)"
    }
}

/// Splits a format string into tokens.
struct PredicateTokenizer {
    private let characters: [Character]
    private let format: String
    private var index = 0

    private static let symbols = ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||",
                                  "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", "."]

    init(_ format: String) {
        self.format = format
        self.characters = Array(format)
    }

    mutating func tokens() throws -> [PredicateToken] {
        var result: [PredicateToken] = []
        while true {
            let token = try next()
            result.append(token)
            if token.kind == .end { return result }
        }
    }

    private func error(_ message: String, at position: Int) -> PredicateParseError {
        PredicateParseError(format: format, position: position, message: message)
    }

    private mutating func next() throws -> PredicateToken {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        let start = index
        guard index < characters.count else { return PredicateToken(kind: .end, position: start) }
        let character = characters[index]
        if character == "\"" || character == "'" {
            return PredicateToken(kind: .string(try quoted(character)), position: start)
        }
        if character == "$" {
            index += 1
            let name = identifierText()
            guard !name.isEmpty else { throw error("expected a variable name after $", at: start) }
            return PredicateToken(kind: .variable(name), position: start)
        }
        if character.isNumber || (character == "-" && index + 1 < characters.count && characters[index + 1].isNumber) {
            return try number(start: start)
        }
        if character.isLetter || character == "_" || character == "#" {
            if character == "#" { index += 1 }
            return PredicateToken(kind: .identifier(identifierText()), position: start)
        }
        for symbol in Self.symbols where matches(symbol) {
            index += symbol.count
            return PredicateToken(kind: .symbol(symbol), position: start)
        }
        throw error("unexpected character '\(character)'", at: start)
    }

    private func matches(_ symbol: String) -> Bool {
        let end = index + symbol.count
        return end <= characters.count && String(characters[index..<end]) == symbol
    }

    private mutating func identifierText() -> String {
        let start = index
        while index < characters.count, characters[index].isLetter || characters[index].isNumber
                || characters[index] == "_" || characters[index] == ":" {
            index += 1
        }
        return String(characters[start..<index])
    }

    private mutating func quoted(_ quote: Character) throws -> String {
        let start = index
        index += 1
        var text = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == quote { return text }
            if character == "\\", index < characters.count {
                let escaped = characters[index]
                index += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                default: text.append(escaped)
                }
            } else {
                text.append(character)
            }
        }
        throw error("unterminated string", at: start)
    }

    private mutating func number(start: Int) throws -> PredicateToken {
        if characters[index] == "-" { index += 1 }
        var isReal = false
        while index < characters.count {
            let character = characters[index]
            if character.isNumber {
                index += 1
            } else if (character == "." || character == "e" || character == "E") && !isReal
                        && index + 1 < characters.count && (characters[index + 1].isNumber || characters[index + 1] == "-") {
                isReal = true
                index += 1
                if characters[index] == "-" { index += 1 }
            } else {
                break
            }
        }
        let text = String(characters[start..<index])
        if !isReal, let integer = Int64(text) { return PredicateToken(kind: .integer(integer), position: start) }
        guard let real = Double(text) else { throw error("invalid number \(text)", at: start) }
        return PredicateToken(kind: .real(real), position: start)
    }
}
