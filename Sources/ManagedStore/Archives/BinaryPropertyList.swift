import Foundation

/// A value of a binary property list, with the `UID` references keyed archives use (Foundation on
/// Linux reads those into a private class, so this small reader keeps them as numbers).
indirect enum PropertyListValue: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case date(Date)
    case data(Data)
    case string(String)
    case uid(Int)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
}

/// Reads `bplist00` data: header, objects, offset table, trailer. `BinaryPropertyListTests`
/// pins it to `PropertyListSerialization` on the compiled models Apple wrote into real stores.
struct BinaryPropertyListReader {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int
    private var depth = 0

    static func read(_ data: Data) throws -> PropertyListValue {
        var reader = try BinaryPropertyListReader(bytes: [UInt8](data))
        return try reader.object(reader.topObject)
    }

    private let topObject: Int

    private init(bytes: [UInt8]) throws {
        guard bytes.count >= 40, Array(bytes.prefix(8)) == Array("bplist00".utf8) else {
            throw Failure(description: "not a binary property list")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = Self.bigEndian(bytes, trailer + 8, 8)
        topObject = Self.bigEndian(bytes, trailer + 16, 8)
        let tableStart = Self.bigEndian(bytes, trailer + 24, 8)
        // Every number here comes from the file: range checks come before any arithmetic on them.
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count < 10_000_000,
              tableStart >= 8, tableStart <= trailer, count * offsetSize <= trailer - tableStart,
              topObject >= 0, topObject < count else {
            throw Failure(description: "the property list's trailer is corrupt")
        }
        offsets = (0..<count).map { Self.bigEndian(bytes, tableStart + $0 * offsetSize, offsetSize) }
        guard offsets.allSatisfy({ $0 >= 8 && $0 < tableStart }) else {
            throw Failure(description: "the property list's offset table is corrupt")
        }
        self.bytes = bytes
    }

    private static func bigEndian(_ bytes: [UInt8], _ start: Int, _ size: Int) -> Int {
        guard start >= 0, start + size <= bytes.count else { return -1 }
        var value = 0
        for index in start..<(start + size) { value = value << 8 | Int(bytes[index]) }
        return value
    }

    private mutating func object(_ index: Int) throws -> PropertyListValue {
        guard index >= 0, index < offsets.count else { throw Failure(description: "a reference points outside the list") }
        depth += 1
        defer { depth -= 1 }
        guard depth < 512 else { throw Failure(description: "the property list nests too deeply") }
        var position = offsets[index]
        let marker = bytes[position]
        let high = marker >> 4, low = Int(marker & 0x0F)
        position += 1
        switch high {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: return .null
            }
        case 0x1:
            return .integer(Int64(truncatingIfNeeded: try integer(at: position, size: 1 << low)))
        case 0x2:
            return .real(try real(at: position, size: 1 << low))
        case 0x3:
            return .date(Date(timeIntervalSinceReferenceDate: try real(at: position, size: 8)))
        case 0x4:
            let (length, start) = try length(low, at: position)
            return .data(Data(try slice(start, length)))
        case 0x5:
            let (length, start) = try length(low, at: position)
            return .string(String(decoding: try slice(start, length), as: UTF8.self))
        case 0x6:
            let (length, start) = try length(low, at: position)
            let raw = Array(try slice(start, length * 2)) // indexed from 0 below
            let units = stride(from: 0, to: raw.count, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            return .uid(try integer(at: position, size: low + 1))
        case 0xA, 0xC:
            let (count, start) = try length(low, at: position)
            return .array(try (0..<count).map { try object(try reference(start + $0 * referenceSize)) })
        case 0xD:
            let (count, start) = try length(low, at: position)
            var dictionary: [String: PropertyListValue] = [:]
            for item in 0..<count {
                guard case .string(let key) = try object(try reference(start + item * referenceSize)) else {
                    throw Failure(description: "a dictionary key is not a string")
                }
                dictionary[key] = try object(try reference(start + (count + item) * referenceSize))
            }
            return .dictionary(dictionary)
        default:
            throw Failure(description: "unknown object marker \(String(marker, radix: 16))")
        }
    }

    private func slice(_ start: Int, _ length: Int) throws -> ArraySlice<UInt8> {
        guard length >= 0, start >= 0, start <= bytes.count, length <= bytes.count - start else { throw Failure(description: "an object runs past the end") }
        return bytes[start..<(start + length)]
    }

    private func integer(at position: Int, size: Int) throws -> Int {
        guard size <= 8, position + size <= bytes.count else { throw Failure(description: "an integer runs past the end") }
        return Self.bigEndian(bytes, position, size)
    }

    private func real(at position: Int, size: Int) throws -> Double {
        let bits = try integer(at: position, size: size)
        return size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: UInt64(bitPattern: Int64(bits)))
    }

    private func reference(_ position: Int) throws -> Int {
        try integer(at: position, size: referenceSize)
    }

    /// A count in the marker's low nibble, or in the integer object that follows when it is 0xF.
    private func length(_ low: Int, at position: Int) throws -> (Int, Int) {
        guard low == 0xF else { return (low, position) }
        guard position < bytes.count, bytes[position] >> 4 == 0x1 else { throw Failure(description: "a length is missing") }
        let size = 1 << Int(bytes[position] & 0x0F)
        let count = try integer(at: position + 1, size: size)
        // No object holds more items or bytes than the file has.
        guard count >= 0, count <= bytes.count else { throw Failure(description: "a length is out of range") }
        return (count, position + 1 + size)
    }
}
