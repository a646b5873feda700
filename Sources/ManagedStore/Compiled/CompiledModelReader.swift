import Foundation

/// Reads the models Xcode compiles into an app: a `.momd` folder (one `.mom` per version and
/// `VersionInfo.plist`, which names the current version and records Apple's hashes) or one `.mom`.
enum CompiledModelReader {
    /// One `.mom` file as a version named after the file.
    static func readVersion(at url: URL) throws -> ManagedObjectModel {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelError(file: url.path, reason: .unreadableFile(cause: .init(error)))
        }
        return try CompiledModelDecoder.decode(data, name: url.deletingPathExtension().lastPathComponent,
                                               sourceName: url.path)
    }

    /// Every `.mom` of a `.momd` folder; each version's hashes must equal those Xcode recorded in
    /// `VersionInfo.plist`, so a model this reader misunderstands is refused, not trusted.
    static func readVersioned(at url: URL) throws -> VersionedModel {
        let moms: [URL]
        do {
            moms = try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "mom" }
        } catch {
            throw ModelError(file: url.path, reason: .unreadableFolder(cause: .init(error)))
        }
        guard !moms.isEmpty else {
            throw ModelError(file: url.path, reason: .noVersions(fileExtension: "mom"))
        }
        let versions = try moms.map(readVersion)
        let info = try VersionInfo(url: url.appendingPathComponent("VersionInfo.plist"))
        for version in versions {
            guard let recorded = info?.hashes[version.name] else { continue }
            let differing = Set(recorded.keys).union(version.entityVersionHashes.keys)
                .filter { recorded[$0] != version.entityVersionHashes[$0] }.sorted()
            guard differing.isEmpty else {
                throw ModelError(file: url.appendingPathComponent("\(version.name).mom").path,
                                 reason: .hashesDiffer(entities: differing))
            }
        }
        let current = info?.currentVersionName ?? (versions.count == 1 ? versions[0].name : nil)
        guard let current else {
            throw ModelError(file: url.path, reason: .noCurrentVersionInVersionInfo)
        }
        return try VersionedModel(name: url.deletingPathExtension().lastPathComponent, versions: versions,
                                  currentVersionName: current, sourceName: url.path)
    }
}

/// `VersionInfo.plist` of a `.momd`: the current version's name and each version's entity hashes.
private struct VersionInfo {
    var currentVersionName: String?
    var hashes: [String: [String: Data]]

    /// The file's keys, decoded by the Swift coder, which needs no run-time bridging (see
    /// StoreMetadataPlist).
    private struct File: Decodable {
        var currentVersionName: String?
        var hashes: [String: [String: Data]] = [:]

        enum CodingKeys: String, CodingKey {
            case currentVersionName = "NSManagedObjectModel_CurrentVersionName"
            case hashes = "NSManagedObjectModel_VersionHashes"
        }

        /// Leniently, as `as?` casts would: a name that is not text counts as absent, and a
        /// version whose hashes are not data is skipped (its hashes are then not compared).
        init(from decoder: Decoder) throws {
            let keys = try decoder.container(keyedBy: CodingKeys.self)
            // A value of another type than Xcode writes is treated as missing (see above).
            currentVersionName = try? keys.decodeIfPresent(String.self, forKey: .currentVersionName)
            guard keys.contains(.hashes) else { return }
            let versions = try keys.nestedContainer(keyedBy: AnyKey.self, forKey: .hashes)
            for version in versions.allKeys {
                // A version entry of another shape is skipped, as before (see above).
                if let entityHashes = try? versions.decode([String: Data].self, forKey: version) {
                    hashes[version.stringValue] = entityHashes
                }
            }
        }
    }

    /// Any key of a dictionary whose keys are names (the versions).
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Nil when the file is absent.
    init?(url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let file: File
        do {
            file = try PropertyListDecoder().decode(File.self, from: Data(contentsOf: url))
        } catch {
            throw ModelError(file: url.path, reason: .unreadableVersionInfo(cause: .init(error)))
        }
        currentVersionName = file.currentVersionName
        hashes = file.hashes
    }
}
