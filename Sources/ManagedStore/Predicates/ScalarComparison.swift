import Foundation
import Synchronization

/// One value as SQLite sees it: the common ground on which the in-memory evaluator and the SQL
/// functions compare, so both paths give the same answers.
enum SQLiteScalar {
    case null
    case number(Double)
    case text(String)
    case blob(Data)

    init(_ value: AttributeValue?) {
        switch value {
        case nil: self = .null
        case .integer(let number)?: self = .number(Double(number))
        case .double(let number)?: self = .number(number)
        case .decimal(let number)?: self = .number(NSDecimalNumber(decimal: number).doubleValue)
        case .bool(let flag)?: self = .number(flag ? 1 : 0)
        case .date(let date)?: self = .number(date.timeIntervalSinceReferenceDate)
        case .string(let text)?: self = .text(text)
        case .uri(let url)?: self = .text(url.absoluteString)
        case .data(let bytes)?: self = .blob(bytes)
        case .uuid(let uuid)?: self = .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        }
    }

    /// SQLite's BINARY ordering: NULL < numbers < text < blobs; text and blobs compare bytewise.
    static func order(_ lhs: SQLiteScalar, _ rhs: SQLiteScalar) -> Int {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return a < b ? -1 : (a > b ? 1 : 0)
        case (.text(let a), .text(let b)): return bytewise(Array(a.utf8), Array(b.utf8))
        case (.blob(let a), .blob(let b)): return bytewise(Array(a), Array(b))
        default: return lhs.rank - rhs.rank
        }
    }

    private var rank: Int {
        switch self {
        case .null: 0
        case .number: 1
        case .text: 2
        case .blob: 3
        }
    }

    private static func bytewise(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count - b.count
    }
}

/// Compares two scalars with a predicate operator. Used both in memory and, through SQL
/// functions, inside SQLite.
enum ScalarComparison {
    static func compare(_ lhs: SQLiteScalar, _ op: ComparisonOperator, _ rhs: SQLiteScalar,
                        options: ComparisonOptions) -> Bool {
        // A MATCHES pattern is a regular expression: folding it would change its meaning.
        let (left, right) = op == .matches ? (lhs, rhs) : fold(lhs, rhs, options)
        switch op {
        case .equal:
            if case .null = left { if case .null = right { return true } }
            return !isNull(left) && !isNull(right) && SQLiteScalar.order(left, right) == 0
        case .notEqual:
            return !compare(lhs, .equal, rhs, options: options)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard !isNull(left), !isNull(right) else { return false }
            let order = SQLiteScalar.order(left, right)
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard case .text(let text) = left, case .text(let pattern) = right else { return false }
            return StringMatching.matches(text, op, pattern, caseInsensitive: options.contains(.caseInsensitive))
        case .in:
            // A scalar IN a string is a substring test.
            guard case .text(let text) = left, case .text(let container) = right else { return false }
            return StringMatching.matches(container, .contains, text, caseInsensitive: false)
        }
    }

    private static func isNull(_ value: SQLiteScalar) -> Bool {
        if case .null = value { return true }
        return false
    }

    /// Applies `[c]` and `[d]` to text; `[c]` on LIKE and MATCHES is left to the matcher.
    private static func fold(_ lhs: SQLiteScalar, _ rhs: SQLiteScalar,
                             _ options: ComparisonOptions) -> (SQLiteScalar, SQLiteScalar) {
        guard !options.isEmpty, case .text(let a) = lhs, case .text(let b) = rhs else { return (lhs, rhs) }
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return (.text(StringMatching.fold(a, folding)), .text(StringMatching.fold(b, folding)))
    }
}

/// The text operators of NSPredicate.
enum StringMatching {
    /// Folds case and/or diacritics. ASCII text (most of it, in practice) is lowercased byte by
    /// byte; other text is folded character by character through a cache, since Foundation's
    /// folding is slow enough to dominate a search over many rows.
    static func fold(_ text: String, _ options: String.CompareOptions) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            guard options.contains(.caseInsensitive) else { return text }
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        return FoldingCache.shared.fold(text, options)
    }

    static func matches(_ text: String, _ op: ComparisonOperator, _ pattern: String, caseInsensitive: Bool) -> Bool {
        switch op {
        case .beginsWith: return text.utf8.starts(with: pattern.utf8)
        case .endsWith: return text.utf8.reversed().starts(with: pattern.utf8.reversed())
        case .contains: return pattern.isEmpty || containsBytes(text, pattern)
        case .like: return wildcard(Array(text), Array(pattern))
        case .matches:
            let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
            // A pattern that is not a regular expression matches no text (the SQL side's
            // MATCHES function answers the same), rather than failing a whole fetch.
            guard let regex = try? NSRegularExpression(pattern: "^(?:\(pattern))$", options: options) else { return false }
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        default: return false
        }
    }

    /// Substring search on UTF-8 bytes (memchr for the first byte, memcmp for the rest): the
    /// generic collection search is far slower.
    static func containsBytes(_ text: String, _ pattern: String) -> Bool {
        var text = text, pattern = pattern
        return text.withUTF8 { haystack in pattern.withUTF8 { needle in containsBytes(haystack, needle) } }
    }

    static func containsBytes(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard var cursor = haystack.baseAddress, let needleBase = needle.baseAddress, needle.count <= haystack.count else { return false }
        let last = cursor + (haystack.count - needle.count)
        while cursor <= last {
            guard let found = memchr(cursor, Int32(first), last - cursor + 1) else { return false }
            let candidate = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
            if memcmp(candidate, needleBase, needle.count) == 0 { return true }
            cursor = candidate + 1
        }
        return false
    }

    /// LIKE: `*` matches any run of characters, `?` one character, `\` escapes.
    static func wildcard(_ text: [Character], _ pattern: [Character]) -> Bool {
        var textIndex = 0, patternIndex = 0
        var starPattern = -1, starText = 0
        while textIndex < text.count {
            if patternIndex < pattern.count {
                let token = pattern[patternIndex]
                if token == "*" {
                    starPattern = patternIndex
                    starText = textIndex
                    patternIndex += 1
                    continue
                }
                let isEscape = token == "\\" && patternIndex + 1 < pattern.count
                let literal = isEscape ? pattern[patternIndex + 1] : token
                if (!isEscape && token == "?") || literal == text[textIndex] {
                    textIndex += 1
                    patternIndex += isEscape ? 2 : 1
                    continue
                }
            }
            guard starPattern >= 0 else { return false }
            starText += 1
            textIndex = starText
            patternIndex = starPattern + 1
        }
        while patternIndex < pattern.count, pattern[patternIndex] == "*" { patternIndex += 1 }
        return patternIndex == pattern.count
    }
}

/// Folded forms of characters, computed once with Foundation and reused: folding a whole string
/// character by character gives the same result as folding it at once, far faster.
final class FoldingCache: Sendable {
    static let shared = FoldingCache()
    /// Case-folded characters, by comparison options; predicates are evaluated on any thread.
    private let characters = Mutex<[UInt: [Character: String]]>([:])

    func fold(_ text: String, _ options: String.CompareOptions) -> String {
        if options.contains(.diacriticInsensitive) { return foldScalars(text, options) }
        return characters.withLock { tables in Self.foldCharacters(text, options, table: &tables[options.rawValue, default: [:]]) }
    }

    /// Without accents: `AccentFolder`, which SQLite's search function shares.
    private func foldScalars(_ text: String, _ options: String.CompareOptions) -> String {
        String(decoding: AccentFolder.folder(caseInsensitive: options.contains(.caseInsensitive)).fold(text), as: UTF8.self)
    }

    /// Case only, character by character (accents stay, precomposed).
    private static func foldCharacters(_ text: String, _ options: String.CompareOptions, table: inout [Character: String]) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if let ascii = character.asciiValue {
                result.unicodeScalars.append(Unicode.Scalar(ascii >= 0x41 && ascii <= 0x5A ? ascii + 0x20 : ascii))
            } else if let known = table[character] {
                result += known
            } else {
                let value = String(character).folding(options: options, locale: nil).precomposedStringWithCanonicalMapping
                if table.count < 100_000 { table[character] = value }
                result += value
            }
        }
        return result
    }
}
