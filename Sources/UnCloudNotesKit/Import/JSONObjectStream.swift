import Foundation

/// Reads a JSON document whose top level is an object, a chunk at a time, and hands out its
/// members one at a time, and the elements of chosen array members one at a time: memory holds
/// one value and one chunk, not the document (a 200 MB export decoded whole took 680 MB).
///
/// It checks the structure it walks (the braces and brackets, commas, colons, what follows the
/// end, strings and their escapes, so a bracket inside a string is text); the text of each value
/// it hands out is checked in full by whoever decodes it (`JSONDecoder`), so together they accept
/// exactly the documents `JSONSerialization` accepts (`JSONObjectStreamTests`), which decoding
/// the whole file accepted before: like it, one comma before a closing bracket and a leading
/// byte order mark are let through.
struct JSONObjectStream {
    /// One piece of the document, as JSON text.
    enum Item: Equatable {
        /// A member's whole value.
        case member(key: String, value: [UInt8])
        /// The opening bracket of a member whose array value is streamed: its elements follow.
        case arrayStart(key: String)
        /// One element of that array.
        case element(key: String, value: [UInt8])
    }

    private enum Place {
        case start, member, afterMember, arrayStart(String), afterElement(String), finished
    }

    private let streamedKeys: Set<String>
    private let nextChunk: () throws -> [UInt8]?
    private var buffer: [UInt8] = []
    private var index = 0
    /// Bytes of the document before `buffer`.
    private var consumed = 0
    private var place = Place.start

    /// - Parameter streamedKeys: members whose array value is handed out element by element.
    /// - Parameter nextChunk: the document's next bytes; nil or empty at its end.
    init(streaming streamedKeys: Set<String>, nextChunk: @escaping () throws -> [UInt8]?) {
        self.streamedKeys = streamedKeys
        self.nextChunk = nextChunk
    }

    /// The next member or element; nil once the closing brace and nothing but white space after
    /// it were read.
    mutating func next() throws(JSONStreamError) -> Item? {
        while true {
            switch place {
            case .start:
                try skipByteOrderMark()
                try expect(Byte.openBrace, "{")
                place = try nextSignificant() == Byte.closeBrace ? .afterMember : .member
            case .member:
                guard try nextSignificant() == Byte.quote else { throw unexpected("a member name in quotes") }
                let keyOffset = position
                let key = try decodedKey(try captureNested(), offset: keyOffset)
                try expect(Byte.colon, ":")
                if streamedKeys.contains(key), try nextSignificant() == Byte.openBracket {
                    index += 1
                    place = .arrayStart(key)
                    return .arrayStart(key: key)
                }
                let value = try captureValue()
                place = .afterMember
                return .member(key: key, value: value)
            case .afterMember:
                switch try nextSignificant() {
                case Byte.comma:
                    index += 1
                    place = try nextSignificant() == Byte.closeBrace ? .afterMember : .member
                case Byte.closeBrace:
                    index += 1
                    guard try nextSignificant() == nil else { throw unexpected("the end of the document") }
                    place = .finished
                default:
                    throw unexpected("',' or '}'")
                }
            case .arrayStart(let key):
                if try nextSignificant() == Byte.closeBracket {
                    index += 1
                    place = .afterMember
                    continue
                }
                let value = try captureValue()
                place = .afterElement(key)
                return .element(key: key, value: value)
            case .afterElement(let key):
                switch try nextSignificant() {
                case Byte.comma:
                    index += 1
                    guard try nextSignificant() != Byte.closeBracket else { continue }
                    let value = try captureValue()
                    return .element(key: key, value: value)
                case Byte.closeBracket:
                    index += 1
                    place = .afterMember
                default:
                    throw unexpected("',' or ']'")
                }
            case .finished:
                return nil
            }
        }
    }

    // MARK: Values

    /// The text of the value that starts at the next significant byte.
    private mutating func captureValue() throws(JSONStreamError) -> [UInt8] {
        switch try nextSignificant() {
        case Byte.openBrace, Byte.openBracket, Byte.quote: return try captureNested()
        case Byte.closeBrace, Byte.closeBracket, Byte.comma, Byte.colon, nil: throw unexpected("a value")
        default: return try captureScalar()
        }
    }

    /// An object, array or string, to the byte that closes it: brackets are counted outside
    /// strings only, and a byte after a backslash never ends a string.
    private mutating func captureNested() throws(JSONStreamError) -> [UInt8] {
        var value: [UInt8] = []
        var closers: [UInt8] = []
        var inString = false, escaped = false
        while try peek() != nil {
            var end = index, done = false
            scan: while end < buffer.count {
                let byte = buffer[end]
                end += 1
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == Byte.backslash {
                        escaped = true
                    } else if byte == Byte.quote {
                        inString = false
                        if closers.isEmpty { done = true; break scan }
                    }
                    continue
                }
                switch byte {
                case Byte.quote: inString = true
                case Byte.openBrace: closers.append(Byte.closeBrace)
                case Byte.openBracket: closers.append(Byte.closeBracket)
                case Byte.closeBrace, Byte.closeBracket:
                    guard closers.last == byte else {
                        index = end - 1
                        throw unexpected(closers.last == Byte.closeBrace ? "',' or '}'" : "',' or ']'")
                    }
                    closers.removeLast()
                    if closers.isEmpty { done = true; break scan }
                default: break
                }
            }
            value.append(contentsOf: buffer[index..<end])
            index = end
            if done { return value }
        }
        throw unexpected(inString ? "the end of a string" : "a closing bracket")
    }

    /// A number, `true`, `false` or `null` (or a wrong word, which its decoder refuses): the
    /// bytes up to the next white space or punctuation.
    private mutating func captureScalar() throws(JSONStreamError) -> [UInt8] {
        var value: [UInt8] = []
        while let byte = try peek(), !Byte.endsScalar(byte) {
            value.append(byte)
            index += 1
        }
        return value
    }

    private func decodedKey(_ text: [UInt8], offset: Int) throws(JSONStreamError) -> String {
        do {
            return try JSONDecoder().decode(String.self, from: Data(text))
        } catch {
            throw .badName(offset: offset, cause: error)
        }
    }

    // MARK: Bytes

    /// The offset of the next byte in the document.
    private var position: Int { consumed + index }

    private mutating func peek() throws(JSONStreamError) -> UInt8? {
        while index == buffer.count {
            let chunk: [UInt8]?
            do {
                chunk = try nextChunk()
            } catch {
                throw .input(error)
            }
            guard let chunk, !chunk.isEmpty else { return nil }
            consumed += buffer.count
            buffer = chunk
            index = 0
        }
        return buffer[index]
    }

    /// The next byte that is not white space, not consumed.
    private mutating func nextSignificant() throws(JSONStreamError) -> UInt8? {
        while let byte = try peek() {
            guard Byte.isWhiteSpace(byte) else { return byte }
            index += 1
        }
        return nil
    }

    /// A UTF-8 byte order mark, which `JSONSerialization` skips too.
    private mutating func skipByteOrderMark() throws(JSONStreamError) {
        guard try peek() == Byte.byteOrderMark[0] else { return }
        for byte in Byte.byteOrderMark {
            guard try peek() == byte else { throw unexpected("'{'") }
            index += 1
        }
    }

    private mutating func expect(_ byte: UInt8, _ name: String) throws(JSONStreamError) {
        guard try nextSignificant() == byte else { throw unexpected("'\(name)'") }
        index += 1
    }

    /// The error for the byte at the current position (or the end of the input).
    private mutating func unexpected(_ expected: String) -> JSONStreamError {
        let found: UInt8?
        do {
            found = try peek()
        } catch {
            return error
        }
        return .unexpected(found: found, expected: expected, offset: position)
    }
}

/// The bytes of JSON's punctuation and white space.
private enum Byte {
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":")
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    static func endsScalar(_ byte: UInt8) -> Bool {
        isWhiteSpace(byte) || byte == comma || byte == closeBrace || byte == closeBracket || byte == colon
            || byte == openBrace || byte == openBracket || byte == quote
    }
}

/// Why a document is not the JSON object it should be.
enum JSONStreamError: Error, CustomStringConvertible {
    /// A byte (nil: the end of the input) where something else had to be.
    case unexpected(found: UInt8?, expected: String, offset: Int)
    /// A member name that is not a valid JSON string.
    case badName(offset: Int, cause: any Error)
    /// The input could not be read.
    case input(any Error)

    var description: String {
        switch self {
        case .unexpected(nil, let expected, let offset): "it ends at byte \(offset) where \(expected) should be"
        case .unexpected(let found?, let expected, let offset): "\(Self.shown(found)) at byte \(offset + 1) where \(expected) should be"
        case .badName(let offset, _): "the member name at byte \(offset + 1) is not a valid string"
        case .input(let cause): "\(cause)"
        }
    }

    /// A byte as a reader can see it: printable ASCII quoted, anything else in hex.
    private static func shown(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(UnicodeScalar(byte)))'" : String(format: "byte 0x%02X", byte)
    }
}
