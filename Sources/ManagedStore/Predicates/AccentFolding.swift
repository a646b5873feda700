import Foundation
import Synchronization

/// Folds UTF-8 text without accents, and without case when asked: combining marks fold to
/// nothing, accented letters to their base letter (as Foundation folds each of them), ASCII is
/// lowercased byte by byte. It works on bytes, so SQLite's search function can use it without
/// making Swift strings, and the in-memory evaluator uses the same code, so both agree.
final class AccentFolder: Sendable {
    static let withCase = AccentFolder(caseInsensitive: false)
    static let withoutCase = AccentFolder(caseInsensitive: true)

    static func folder(caseInsensitive: Bool) -> AccentFolder {
        caseInsensitive ? withoutCase : withCase
    }

    let caseInsensitive: Bool
    /// Folded bytes of every non-ASCII scalar met so far, by scalar value. Scalars below U+0800
    /// (Latin, Greek, Cyrillic, combining marks: most of what folds) are kept in a flat table.
    private struct Tables {
        var folded: [UInt32: [UInt8]] = [:]
        var small = [[UInt8]?](repeating: nil, count: 0x800)
    }
    /// SQLite's search function folds rows on whatever thread runs the query.
    private let tables = Mutex(Tables())

    private init(caseInsensitive: Bool) {
        self.caseInsensitive = caseInsensitive
    }

    func fold(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { fold($0) }
    }

    func fold(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        fold(bytes, into: &output) { _ in false }
        return output
    }

    /// Whether the folded text contains the (already folded) pattern; stops folding as soon as
    /// it is found.
    func contains(_ bytes: UnsafeBufferPointer<UInt8>, foldedPattern pattern: [UInt8]) -> Bool {
        guard !pattern.isEmpty else { return true }
        var output: [UInt8] = []
        var searched = 0
        let found = fold(bytes, into: &output) { folded in
            guard folded.count - searched >= 256 else { return false }
            defer { searched = folded.count - pattern.count + 1 }
            return Self.contains(folded, from: searched, pattern)
        }
        return found || Self.contains(output, from: searched, pattern)
    }

    private static func contains(_ folded: [UInt8], from start: Int, _ pattern: [UInt8]) -> Bool {
        folded.withUnsafeBufferPointer { all in
            pattern.withUnsafeBufferPointer { needle in
                let from = max(0, start)
                return StringMatching.containsBytes(UnsafeBufferPointer(rebasing: all[from...]), needle)
            }
        }
    }

    /// Folds into `output`, asking `stop` after each scalar whether to stop early.
    @discardableResult
    private func fold(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], stop: ([UInt8]) -> Bool) -> Bool {
        output.reserveCapacity(bytes.count)
        return tables.withLock { tables in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    output.append(caseInsensitive && byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                    index += 1
                    if byte == 0x20, stop(output) { return true }
                    continue
                }
                let (scalar, length) = Self.decode(bytes, at: index)
                index += length
                guard let scalar else {
                    output.append(byte)
                    continue
                }
                if scalar.value < 0x800 {
                    if let known = tables.small[Int(scalar.value)] {
                        output.append(contentsOf: known)
                    } else {
                        let value = foldedBytes(of: scalar)
                        tables.small[Int(scalar.value)] = value
                        output.append(contentsOf: value)
                    }
                } else if let known = tables.folded[scalar.value] {
                    output.append(contentsOf: known)
                } else {
                    let value = foldedBytes(of: scalar)
                    if tables.folded.count < 200_000 { tables.folded[scalar.value] = value }
                    output.append(contentsOf: value)
                }
            }
            return false
        }
    }

    private func foldedBytes(of scalar: Unicode.Scalar) -> [UInt8] {
        let category = scalar.properties.generalCategory
        if category == .nonspacingMark || category == .enclosingMark { return [] }
        var options: String.CompareOptions = [.diacriticInsensitive]
        if caseInsensitive { options.insert(.caseInsensitive) }
        return Array(String(scalar).folding(options: options, locale: nil).precomposedStringWithCanonicalMapping.utf8)
    }

    /// One UTF-8 sequence; nil for a malformed one (its first byte is kept as it is).
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar?, Int) {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1, index + length <= bytes.count else { return (nil, 1) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        return (Unicode.Scalar(value), length)
    }
}
