import Foundation

/// The column layout Core Data gives a Binary or Transformable attribute that allows external
/// storage: a tag byte, then either the value itself or the name of the file holding it.
///
/// - `0x01` + bytes: the value, inline;
/// - `0x02` + 36 ASCII characters (an uppercase UUID; a trailing NUL and lowercase are accepted
///   when reading): the value is the whole content of that file in the store's `ExternalDataFolder`.
///
/// NULL stays NULL. Attributes without the flag keep their raw bytes, untagged.
public enum ExternalBinaryBlob {
    /// The tag of a value kept in the column itself.
    public static let inlineTag: UInt8 = 0x01
    /// The tag of a value kept in a file of the `ExternalDataFolder`, named after the tag.
    public static let externalTag: UInt8 = 0x02

    /// Values longer than this go to a file, shorter ones stay inline. Core Data does not document
    /// its threshold: Apple engineers say "larger than a certain size (100KB)", reverse-engineering
    /// notes report 128 KB or 1 MB. The threshold only decides where a value is written: the tag
    /// says where each value is, so stores written with any threshold read the same.
    public static let externalThreshold = 100 * 1024

    /// What a tagged column holds.
    public enum Content: Equatable, Sendable {
        /// The value itself, kept in the column.
        case inline(Data)
        /// The file's name: an uppercase UUID string.
        case external(fileName: String)
    }

    /// Reads a tagged blob; an empty blob, an unknown tag or a malformed file name is a problem.
    public static func content(of blob: Data) throws(ExternalDataProblem) -> Content {
        guard let tag = blob.first else { throw .missingTag }
        let rest = blob.dropFirst()
        switch tag {
        case inlineTag:
            return .inline(Data(rest))
        case externalTag:
            var characters = Data(rest)
            if characters.last == 0 { characters.removeLast() }
            let text = String(decoding: characters, as: UTF8.self)
            guard characters.count == 36, let uuid = UUID(uuidString: text) else {
                throw .malformedFileName(String(text.prefix(60)))
            }
            return .external(fileName: uuid.uuidString)
        default:
            throw .unknownTag(tag)
        }
    }

    /// The column value keeping `value` inline.
    public static func inline(_ value: Data) -> Data {
        Data([inlineTag]) + value
    }

    /// The column value naming the file that holds the value.
    public static func external(fileName: String) -> Data {
        Data([externalTag]) + Data(fileName.utf8)
    }

    /// Whether a value of this size goes to a file.
    public static func belongsInFile(_ value: Data) -> Bool {
        value.count > externalThreshold
    }
}

/// Why a value stored with the external-storage layout cannot be read.
public enum ExternalDataProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// An empty blob: not even the tag byte.
    case missingTag
    /// A first byte that is neither tag.
    case unknownTag(UInt8)
    /// After the external tag, something other than a UUID.
    case malformedFileName(String)
    /// Text where a tagged blob belongs.
    case notABlob
    /// The file the column names is not in the store's folder.
    case missingFile(path: String)
    /// The file is there but cannot be read; `reason` is the system's.
    case unreadableFile(path: String, reason: String)

    /// What is wrong, as a phrase for a `StoreError` message.
    public var description: String {
        switch self {
        case .missingTag: "an empty blob, with no storage tag"
        case .unknownTag(let tag): "the unknown storage tag 0x\(String(tag, radix: 16, uppercase: true))"
        case .malformedFileName(let name): "an external file name that is no UUID (\(name.debugDescription))"
        case .notABlob: "text, not a tagged blob"
        case .missingFile(let path): "a reference to \(path), which is missing"
        case .unreadableFile(let path, let reason): "a reference to \(path), which cannot be read (\(reason))"
        }
    }
}
