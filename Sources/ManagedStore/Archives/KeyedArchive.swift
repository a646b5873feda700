import Foundation

/// The object table of an NSKeyedArchiver archive (a binary property list), with UIDs resolved on
/// demand: what mapping models' archived expressions and compiled models (`.mom`) are made of.
struct KeyedArchive {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let objects: [PropertyListValue]
    let root: PropertyListValue

    init(_ data: Data) throws {
        guard case .dictionary(let top) = try BinaryPropertyListReader.read(data),
              case .array(let objects)? = top["$objects"],
              case .dictionary(let roots)? = top["$top"], let root = roots["root"] ?? roots.values.first else {
            throw Failure(description: "not an NSKeyedArchiver archive")
        }
        self.objects = objects
        if case .uid(let index) = root, index > 0, index < objects.count {
            self.root = objects[index]
        } else {
            self.root = root
        }
    }

    /// The object a UID names (`.null` for `$null` or a UID out of range); other values as they are.
    func resolve(_ value: PropertyListValue) -> PropertyListValue {
        guard case .uid(let index) = value else { return value }
        guard index > 0, index < objects.count else { return .null }
        return objects[index]
    }

    func className(of dictionary: [String: PropertyListValue]) -> String? {
        guard let reference = dictionary["$class"], case .dictionary(let info) = resolve(reference),
              case .string(let name)? = info["$classname"] else { return nil }
        return name
    }

    func text(_ value: PropertyListValue) -> String? {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .bool(let flag): return flag ? "YES" : "NO"
        case .dictionary(let dictionary):
            // An NSMutableString; one level only, so a string pointing at itself cannot recurse.
            guard case .string(let text)? = dictionary["NS.string"].map(resolve) else { return nil }
            return text
        default: return nil
        }
    }

    /// The resolved items of an archived NSArray or NSSet.
    func array(_ value: PropertyListValue?) throws -> [PropertyListValue] {
        guard let value, case .dictionary(let dictionary) = resolve(value),
              case .array(let items)? = dictionary["NS.objects"] else {
            throw Failure(description: "expected an archived array")
        }
        return items.map(resolve)
    }
}
