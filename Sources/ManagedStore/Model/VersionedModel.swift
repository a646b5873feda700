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
            throw ModelError(file: sourceName,
                             reason: "the current version \"\(currentVersionName)\" is not one of the model's versions")
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

    /// The short name of a version, in file names and on screen: `v1` for the first version, and so on.
    public func label(of version: ManagedObjectModel) -> String {
        "v\((versions.firstIndex { $0.name == version.name } ?? 0) + 1)"
    }

    /// The version of this name (`UnCloudNotesDataModel v2`), nil when there is none.
    public func version(named name: String) -> ManagedObjectModel? {
        versions.first { $0.name == name }
    }
}
