import Foundation
import Testing
@testable import UnCloudNotesKit

/// `JSONObjectStream` against `JSONSerialization`: on generated documents, every member and
/// element it hands out parses to the value the whole document holds there; on truncated and
/// corrupted ones it accepts exactly what `JSONSerialization` accepts, and otherwise throws, never
/// traps. Inputs come in chunks of every size from one byte up, so a value split across chunks
/// is read as one.
@Suite struct JSONObjectStreamTests {
    /// A seeded generator, so a failure names the document that caused it.
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Text with the characters that trouble a splitter: quotes, backslashes, brackets, escapes.
    private static func text(_ random: inout SplitMix) -> String {
        let pieces = ["a", "é", "\"", "\\", "{", "}", "[", "]", ",", ":", " ", "\n", "\u{1}", "😀", "\\\"", "note"]
        return (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
    }

    private static func value(_ random: inout SplitMix, depth: Int) -> Any {
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &random) {
        case 0: return NSNull()
        case 1: return Bool.random(using: &random)
        case 2: return Int.random(in: -1_000_000...1_000_000, using: &random)
        case 3: return Double(Int.random(in: -10_000...10_000, using: &random)) / 8
        case 4: return text(&random)
        case 5: return (0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth + 1) }
        default:
            var object: [String: Any] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) { object[text(&random)] = value(&random, depth: depth + 1) }
            return object
        }
    }

    /// A top-level object with a `notes` array among other members, and the document's bytes.
    private static func document(seed: UInt64) throws -> (object: [String: Any], bytes: [UInt8]) {
        var random = SplitMix(state: seed)
        var object: [String: Any] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &random) { object[text(&random)] = value(&random, depth: 1) }
        if Bool.random(using: &random) {
            object["notes"] = (0..<Int.random(in: 0...6, using: &random)).map { _ in value(&random, depth: 1) }
        }
        let options: JSONSerialization.WritingOptions = Bool.random(using: &random) ? [.prettyPrinted] : []
        return (object, [UInt8](try JSONSerialization.data(withJSONObject: object, options: options)))
    }

    /// Every item the stream gives for `bytes` read in chunks of `chunkSize`.
    private static func items(_ bytes: [UInt8], chunkSize: Int) throws(JSONStreamError) -> [JSONObjectStream.Item] {
        var offset = 0
        var stream = JSONObjectStream(streaming: ["notes"]) {
            defer { offset += chunkSize }
            return offset < bytes.count ? Array(bytes[offset..<min(offset + chunkSize, bytes.count)]) : nil
        }
        var items: [JSONObjectStream.Item] = []
        while let item = try stream.next() { items.append(item) }
        return items
    }

    private static func parsed(_ bytes: [UInt8]) -> Any? {
        // nil is the answer under test: the text is not JSON.
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// The document the items describe, each value parsed alone; nil when one does not parse.
    private static func rebuilt(_ items: [JSONObjectStream.Item]) -> [String: Any]? {
        var object: [String: Any] = [:]
        for item in items {
            switch item {
            case .member(let key, let value):
                guard let parsed = parsed(value) else { return nil }
                object[key] = parsed
            case .arrayStart(let key):
                object[key] = [Any]()
            case .element(let key, let value):
                guard let parsed = parsed(value), var array = object[key] as? [Any] else { return nil }
                array.append(parsed)
                object[key] = array
            }
        }
        return object
    }

    /// A value's JSON with sorted keys: one text per value, to compare parsed values by.
    private static func canonical(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("members and elements parse to the document's own values, in chunks of any size")
    func agreesWithJSONSerialization() throws {
        for seed in UInt64(1)...400 {
            let (object, bytes) = try Self.document(seed: seed)
            for chunkSize in [1, 2, 3, 7, 64, bytes.count + 1] {
                let rebuilt = try #require(Self.rebuilt(try Self.items(bytes, chunkSize: chunkSize)), "seed \(seed)")
                #expect(try Self.canonical(rebuilt) == Self.canonical(object), "seed \(seed), chunks of \(chunkSize)")
            }
        }
    }

    @Test("an array member is handed out element by element, other members whole")
    func shape() throws {
        let text = #" { "format" : "x", "notes" : [ {"t":"a]\"}"} ,[1,{}], 2 ] , "tail":[3] } "#
        #expect(try Self.items(Array(text.utf8), chunkSize: 5) == [
            .member(key: "format", value: Array(#""x""#.utf8)),
            .arrayStart(key: "notes"),
            .element(key: "notes", value: Array(#"{"t":"a]\"}"}"#.utf8)),
            .element(key: "notes", value: Array("[1,{}]".utf8)),
            .element(key: "notes", value: Array("2".utf8)),
            .member(key: "tail", value: Array("[3]".utf8)),
        ])
    }

    @Test("truncated and corrupted documents: accepted exactly when JSONSerialization accepts them, else an error")
    func truncatedAndCorrupted() throws {
        var random = SplitMix(state: 99)
        let damage: [UInt8] = Array(#"{}[]",:\ a0-"#.utf8) + [0x00, 0xFF, 0x0A]
        for seed in UInt64(1)...300 {
            let (_, bytes) = try Self.document(seed: seed)
            var inputs = (0..<bytes.count).filter { _ in Int.random(in: 0..<8, using: &random) == 0 }.map { Array(bytes[..<$0]) }
            for _ in 0..<10 {
                var corrupted = bytes
                let at = Int.random(in: 0..<corrupted.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: corrupted[at] = damage.randomElement(using: &random) ?? 0
                case 1: corrupted.remove(at: at)
                default: corrupted.insert(damage.randomElement(using: &random) ?? 0, at: at)
                }
                inputs.append(corrupted)
            }
            for input in inputs {
                let whole = Self.parsed(input) as? [String: Any]
                let streamed: [String: Any]?
                do {
                    streamed = Self.rebuilt(try Self.items(input, chunkSize: 3))
                } catch {
                    #expect(!error.description.isEmpty && !error.description.contains("\n"))
                    streamed = nil
                }
                #expect((whole == nil) == (streamed == nil), "seed \(seed): \(String(decoding: input, as: UTF8.self))")
                if let whole, let streamed {
                    #expect(try Self.canonical(streamed) == Self.canonical(whole), "seed \(seed)")
                }
            }
        }
    }

    @Test("errors name the byte and what was expected there")
    func messages() throws {
        func message(_ text: String) -> String {
            do {
                _ = try Self.items(Array(text.utf8), chunkSize: 4)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(message("[1]") == "'[' at byte 1 where '{' should be")
        #expect(message(#"{"notes":[1,2"#) == "it ends at byte 13 where ',' or ']' should be")
        #expect(message(#"{"a":1 "b":2}"#) == "'\"' at byte 8 where ',' or '}' should be")
        #expect(message(#"{"a":"open"#) == "it ends at byte 10 where the end of a string should be")
        #expect(message(#"{"a":[1}}"#) == "'}' at byte 8 where ',' or ']' should be")
        #expect(message(#"{} x"#) == "'x' at byte 4 where the end of the document should be")
        #expect(message("") == "it ends at byte 0 where '{' should be")
        // As JSONSerialization: one comma before a closing bracket, and a byte order mark.
        #expect(message(#"\#u{FEFF}{"notes":[1,],"a":2,}"#) == "accepted")
        #expect(message(#"{"notes":[1,,]}"#) == "',' at byte 13 where a value should be")
        #expect(message(#"{"notes":[,]}"#) == "',' at byte 11 where a value should be")
    }
}
