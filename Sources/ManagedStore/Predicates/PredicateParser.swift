/// A recursive-descent parser for the NSPredicate / NSExpression format subset:
///
///     predicate  := or
///     or         := and (("OR" | "||") and)*
///     and        := not (("AND" | "&&") not)*
///     not        := ("NOT" | "!") not | "(" predicate ")" | TRUEPREDICATE | FALSEPREDICATE | comparison
///     comparison := expression operator ["[" c|d|cd "]"] expression
///     expression := literal | keypath | $variable[.keypath] | FUNCTION(expr, "sel:", expr…) | {expr, …}
struct PredicateParser {
    private let format: String
    private let tokens: [PredicateToken]
    private var index = 0

    init(_ format: String) throws {
        self.format = format
        var tokenizer = PredicateTokenizer(format)
        self.tokens = try tokenizer.tokens()
    }

    mutating func parsePredicate() throws -> ObjectPredicate {
        let predicate = try parseOr()
        try expectEnd()
        return predicate
    }

    mutating func parseStandaloneExpression() throws -> ValueExpression {
        let expression = try parseExpression()
        try expectEnd()
        return expression
    }

    // MARK: Predicates

    private mutating func parseOr() throws -> ObjectPredicate {
        var parts = [try parseAnd()]
        while acceptKeyword("OR") || acceptSymbol("||") { parts.append(try parseAnd()) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func parseAnd() throws -> ObjectPredicate {
        var parts = [try parseNot()]
        while acceptKeyword("AND") || acceptSymbol("&&") { parts.append(try parseNot()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func parseNot() throws -> ObjectPredicate {
        if acceptKeyword("NOT") || acceptSymbol("!") { return .not(try parseNot()) }
        if acceptSymbol("(") {
            let inner = try parseOr()
            try expectSymbol(")")
            return inner
        }
        if acceptKeyword("TRUEPREDICATE") { return .constant(true) }
        if acceptKeyword("FALSEPREDICATE") { return .constant(false) }
        return try parseComparison()
    }

    private mutating func parseComparison() throws -> ObjectPredicate {
        let lhs = try parseExpression()
        let operatorToken = current
        let op: ComparisonOperator
        switch operatorToken.kind {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        case .identifier(let word):
            switch word.uppercased() {
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "CONTAINS": op = .contains
            case "LIKE": op = .like
            case "MATCHES": op = .matches
            case "IN": op = .in
            case "BETWEEN": return try parseBetween(lhs)
            default: throw error("expected a comparison operator, found \"\(word)\"", at: operatorToken)
            }
        case .end: throw error("expected a comparison operator after \(lhs)", at: operatorToken)
        default: throw error("expected a comparison operator", at: operatorToken)
        }
        advance()
        let options = try parseOptions()
        return .comparison(lhs, op, try parseExpression(), options)
    }

    /// `x BETWEEN {a, b}` is `x >= a AND x <= b`.
    private mutating func parseBetween(_ lhs: ValueExpression) throws -> ObjectPredicate {
        let start = current
        advance()
        guard case .aggregate(let bounds) = try parseExpression(), bounds.count == 2 else {
            throw error("BETWEEN needs a collection of two bounds, {low, high}", at: start)
        }
        return .and([.comparison(lhs, .greaterOrEqual, bounds[0], []),
                     .comparison(lhs, .lessOrEqual, bounds[1], [])])
    }

    private mutating func parseOptions() throws -> ComparisonOptions {
        guard acceptSymbol("[") else { return [] }
        let token = current
        guard case .identifier(let letters) = token.kind else {
            throw error("expected comparison options such as [c], [d] or [cd]", at: token)
        }
        advance()
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            case "n", "l": continue
            default: throw error("unknown comparison option '\(letter)'", at: token)
            }
        }
        try expectSymbol("]")
        return options
    }

    // MARK: Expressions

    private mutating func parseExpression() throws -> ValueExpression {
        let token = current
        switch token.kind {
        case .string(let text):
            advance()
            return .constant(.string(text))
        case .integer(let number):
            advance()
            return .constant(.integer(number))
        case .real(let number):
            advance()
            return .constant(.double(number))
        case .variable(let name):
            advance()
            return try parseKeyPathTail(base: .variable(name))
        case .symbol("{"):
            advance()
            var items: [ValueExpression] = []
            if !acceptSymbol("}") {
                repeat { items.append(try parseExpression()) } while acceptSymbol(",")
                try expectSymbol("}")
            }
            return .aggregate(items)
        case .identifier(let word):
            switch word.uppercased() {
            case "NIL", "NULL": advance(); return .constant(nil)
            case "TRUE", "YES": advance(); return .constant(.bool(true))
            case "FALSE", "NO": advance(); return .constant(.bool(false))
            case "SELF": advance(); return try parseKeyPathTail(base: nil)
            case "FUNCTION" where peek.kind == .symbol("("): return try parseFunction()
            default: return try parseKeyPath()
            }
        case .end:
            throw error("expected an expression, found the end", at: token)
        default:
            throw error("expected an expression", at: token)
        }
    }

    private mutating func parseKeyPath() throws -> ValueExpression {
        var components: [String] = []
        repeat {
            let token = current
            guard case .identifier(let name) = token.kind else { throw error("expected a key name", at: token) }
            advance()
            components.append(name)
        } while acceptSymbol(".")
        return .keyPath(base: nil, components: components)
    }

    /// `.a.b` after `$variable` or `SELF`.
    private mutating func parseKeyPathTail(base: ValueExpression?) throws -> ValueExpression {
        guard acceptSymbol(".") else { return base ?? .evaluatedObject }
        guard case .keyPath(_, let components) = try parseKeyPath() else { return base ?? .evaluatedObject }
        return .keyPath(base: base, components: components)
    }

    private mutating func parseFunction() throws -> ValueExpression {
        advance()
        try expectSymbol("(")
        let target = try parseExpression()
        try expectSymbol(",")
        let selectorToken = current
        guard case .string(let selector) = selectorToken.kind else {
            throw error("expected the selector as a string, e.g. \"now\"", at: selectorToken)
        }
        advance()
        var arguments: [ValueExpression] = []
        while acceptSymbol(",") { arguments.append(try parseExpression()) }
        try expectSymbol(")")
        return .function(target: target, selector: selector, arguments: arguments)
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[index] }
    private var peek: PredicateToken { tokens[min(index + 1, tokens.count - 1)] }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    private mutating func acceptSymbol(_ symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        advance()
        return true
    }

    private mutating func acceptKeyword(_ keyword: String) -> Bool {
        guard case .identifier(let word) = current.kind, word.uppercased() == keyword else { return false }
        advance()
        return true
    }

    private mutating func expectSymbol(_ symbol: String) throws {
        guard acceptSymbol(symbol) else { throw error("expected '\(symbol)'", at: current) }
    }

    private func expectEnd() throws {
        guard current.kind == .end else { throw error("unexpected text after the end", at: current) }
    }

    private func error(_ message: String, at token: PredicateToken) -> PredicateParseError {
        PredicateParseError(format: format, position: token.position, message: message)
    }
}

extension ValueExpression {
    /// Parses NSExpression's format syntax, e.g. `$source.title` or `FUNCTION($manager, "sel:", $source)`.
    public init(format: String) throws {
        var parser = try PredicateParser(format)
        self = try parser.parseStandaloneExpression()
    }
}
