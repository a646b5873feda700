import Foundation

/// The external-storage part of `store info`: which attributes of the store's version keep large
/// values in files, and what the support folder holds, so a user copying the store by hand knows
/// the folder belongs to it.
public struct ExternalStorageReport: Codable, Sendable, Equatable {
    /// `Entity.attribute`, sorted.
    public var attributes: [String]
    /// The `_EXTERNAL_DATA` folder beside the store.
    public var folder: String
    /// How many value files it holds.
    public var files: Int
    /// Their total size.
    public var bytes: Int64

    /// Nil when no attribute of the version allows external storage.
    public init?(store: URL, version: ManagedObjectModel) throws {
        attributes = version.entities.flatMap { entity in
            entity.attributes.filter(\.storesExternally).map { "\(entity.name).\($0.name)" }
        }.sorted()
        guard !attributes.isEmpty else { return nil }
        let external = ExternalDataFolder(storeAt: StorePath.real(store))
        folder = external.url.path
        let names = try external.fileNames()
        files = names.count
        bytes = names.reduce(0) { total, name in
            // A file removed while the folder is listed counts as empty: the count is a report, not a check.
            let size = (try? FileManager.default.attributesOfItem(atPath: external.file(named: name).path))?[.size] as? NSNumber
            return total + (size?.int64Value ?? 0)
        }
    }

    /// One line for the text report.
    public var text: String {
        "external storage: \(attributes.joined(separator: ", ")) (\(folder): \(files) file\(files == 1 ? "" : "s"), \(bytes) bytes)"
    }
}
