import Foundation

/// All versions of a data model (an Xcode `.xcdatamodeld`), one of them current.
public struct VersionedModel: Sendable {
    /// The model's name, e.g. `UnCloudNotesDataModel`.
    public let name: String
    /// Versions in their natural order (`Model`, `Model v2`, …, `Model v10`).
    public let versions: [ManagedObjectModel]
    /// The version named by `.xccurrentversion`.
    public let currentVersionName: String

    /// - Throws: `ModelError` when `currentVersionName` names none of the versions.
    public init(name: String, versions: [ManagedObjectModel], currentVersionName: String,
                sourceName: String) throws {
        guard versions.contains(where: { $0.name == currentVersionName }) else {
            throw ModelError(file: sourceName, reason: .unknownCurrentVersion(currentVersionName))
        }
        self.name = name
        self.versions = versions.sorted {
            $0.name.compare($1.name, options: [.numeric, .caseInsensitive]) == .orderedAscending
        }
        self.currentVersionName = currentVersionName
    }

    /// The version new stores are created with and old stores are migrated to.
    public var current: ManagedObjectModel {
        // The initializer guarantees the current version is present.
        versions.first { $0.name == currentVersionName }!
    }

    /// The short name of a version, in file names and on screen: the version its name ends with
    /// (`Notes v1.2.0` is `v1.2.0`, `Notes_v3` is `v3`) when no other version's name ends so,
    /// else its place (`v1` for the first version, and so on), as for a first version named
    /// like the model.
    public func label(of version: ManagedObjectModel) -> String {
        let ordinal = "v\((versions.firstIndex { $0.name == version.name } ?? 0) + 1)"
        guard let own = Self.versionSuffix(of: version.name),
              versions.filter({ Self.versionSuffix(of: $0.name) == own }).count == 1 else { return ordinal }
        return own
    }

    /// `v1.2.0` of `Notes v1.2.0`, `Notes-1.2` or `Notes_v1.2`; nil when the name ends otherwise.
    private static func versionSuffix(of name: String) -> String? {
        guard let separator = name.lastIndex(where: { $0 == " " || $0 == "_" || $0 == "-" }) else { return nil }
        var suffix = name[name.index(after: separator)...]
        if suffix.first == "v" || suffix.first == "V" { suffix = suffix.dropFirst() }
        let parts = suffix.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        return "v" + suffix
    }

    /// The version of this name (`UnCloudNotesDataModel v2`), nil when there is none.
    public func version(named name: String) -> ManagedObjectModel? {
        versions.first { $0.name == name }
    }
}
