import Foundation

/// Builds NSKeyedArchiver archives object by object, under any class names, and writes them as
/// binary property lists: for tests of archives laid out as Apple's Foundation writes them
/// (Foundation on Linux cannot archive under another class's name).
public final class KeyedArchiveBuilder {
    public indirect enum Value {
        case string(String)
        case integer(Int)
        case real(Double)
        case uid(Int)
        case array([Value])
        case dictionary([String: Value])
    }

    private var objects: [Value] = [.string("$null")]
    private var classes: [String: Int] = [:]

    public init() {}

    /// Adds a plain value (string, number) to the object table and returns its UID.
    public func add(_ value: Value) -> Value {
        objects.append(value)
        return .uid(objects.count - 1)
    }

    /// Adds an object of the class, with its coder keys, and returns its UID.
    public func object(_ className: String, superclasses: [String] = ["NSObject"], _ fields: [String: Value]) -> Value {
        let classID: Int
        if let known = classes[className] {
            classID = known
        } else {
            objects.append(.dictionary(["$classname": .string(className),
                                        "$classes": .array(([className] + superclasses).map(Value.string))]))
            classID = objects.count - 1
            classes[className] = classID
        }
        var dictionary = fields
        dictionary["$class"] = .uid(classID)
        return add(.dictionary(dictionary))
    }

    /// An NSArray of the given UIDs.
    public func array(_ items: [Value]) -> Value {
        object("NSArray", ["NS.objects": .array(items)])
    }

    /// The archive with `root` as its root object, as a binary property list.
    public func archive(root: Value) -> Data {
        BinaryPlistWriter.write(.dictionary([
            "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000),
            "$top": .dictionary(["root": root]), "$objects": .array(objects),
        ]))
    }
}

/// A minimal `bplist00` writer: every value becomes one object, references are two bytes.
private enum BinaryPlistWriter {
    static func write(_ root: KeyedArchiveBuilder.Value) -> Data {
        var encoded: [[UInt8]] = []
        func add(_ value: KeyedArchiveBuilder.Value) -> Int {
            let index = encoded.count
            encoded.append([])
            var bytes: [UInt8]
            switch value {
            case .string(let text):
                let utf8 = Array(text.utf8)
                bytes = header(0x5, utf8.count) + utf8
            case .integer(let number):
                bytes = [0x13] + withUnsafeBytes(of: Int64(number).bigEndian, Array.init)
            case .real(let number):
                bytes = [0x23] + withUnsafeBytes(of: number.bitPattern.bigEndian, Array.init)
            case .uid(let id):
                bytes = [0x81] + withUnsafeBytes(of: UInt16(id).bigEndian, Array.init)
            case .array(let items):
                let references = items.map(add)
                bytes = header(0xA, items.count) + references.flatMap(reference)
            case .dictionary(let dictionary):
                let keys = dictionary.keys.sorted()
                let keyReferences = keys.map { add(.string($0)) }
                let valueReferences = keys.map { add(dictionary[$0]!) }
                bytes = header(0xD, keys.count) + (keyReferences + valueReferences).flatMap(reference)
            }
            encoded[index] = bytes
            return index
        }
        _ = add(root)
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in encoded {
            offsets.append(output.count)
            output += object
        }
        let tableOffset = output.count
        for offset in offsets { output += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
        output += [0, 0, 0, 0, 0, 0, 4, 2]
        output += withUnsafeBytes(of: UInt64(encoded.count).bigEndian, Array.init)
        output += withUnsafeBytes(of: UInt64(0).bigEndian, Array.init)
        output += withUnsafeBytes(of: UInt64(tableOffset).bigEndian, Array.init)
        return Data(output)
    }

    private static func header(_ kind: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0xF, 0x11] + withUnsafeBytes(of: UInt16(count).bigEndian, Array.init)
    }

    private static func reference(_ index: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt16(index).bigEndian, Array.init)
    }
}
