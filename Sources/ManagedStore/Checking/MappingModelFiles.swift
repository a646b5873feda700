import Foundation

/// The mapping model files given to a check, read against the model: each read one, and a
/// finding for each that cannot be read or was made against other versions of the models.
struct MappingModelFiles {
    /// The file, and what was read from it.
    struct Entry {
        var url: URL
        var mapping: MappingModel
    }

    var entries: [Entry] = []
    var findings: [CheckFinding] = []

    /// Lists the `.xcmappingmodel` files in `folder` (or `folder` itself when it is one).
    static func list(in folder: URL) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw ModelCheckError.unreadableMappingFolder(path: folder.path, cause: ModelError(file: folder.path, reason: .noSuchFolder))
        }
        guard isFolder.boolValue else {
            throw ModelCheckError.unreadableMappingFolder(path: folder.path,
                                                          cause: ModelError(file: folder.path, reason: .notAFolderOfMappingModels))
        }
        if folder.pathExtension == "xcmappingmodel" { return [folder] }
        do {
            let found = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { ["xcmappingmodel", "cdm"].contains($0.pathExtension) }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            guard !found.isEmpty else { throw ModelCheckError.noMappingModels(path: folder.path) }
            return found
        } catch let error as ModelCheckError {
            throw error
        } catch {
            throw ModelCheckError.unreadableMappingFolder(path: folder.path, cause: error)
        }
    }

    /// Reads each file against `model`; what cannot be read, or is out of date, is a finding.
    init(urls: [URL], model: VersionedModel) {
        for url in urls {
            let name = url.lastPathComponent
            let mapping: MappingModel
            do {
                mapping = try MappingModelReader.read(at: url, models: model)
            } catch {
                findings.append(CheckFinding(.error, .mappingModelUnreadable, at: name, ErrorText.oneLine(error)))
                continue
            }
            if let earlier = entries.first(where: { $0.mapping.sourceEntityHashes == mapping.sourceEntityHashes
                && $0.mapping.destinationEntityHashes == mapping.destinationEntityHashes }) {
                findings.append(CheckFinding(.error, .mappingModelUnreadable, at: name,
                                             "maps the same versions as \(earlier.url.lastPathComponent): which one runs is a guess; keep one"))
                continue
            }
            entries.append(Entry(url: url, mapping: mapping))
            findings += Self.outOfDate(mapping, at: url, model: model)
        }
    }

    var mappingModels: [MappingModel] { entries.map(\.mapping) }

    /// The versions a mapping model maps, found by its hashes.
    static func versions(of mapping: MappingModel, in model: VersionedModel) -> (ManagedObjectModel, ManagedObjectModel)? {
        guard let source = model.versions.first(where: { $0.entityVersionHashes == mapping.sourceEntityHashes }),
              let destination = model.versions.first(where: { $0.entityVersionHashes == mapping.destinationEntityHashes }) else { return nil }
        return (source, destination)
    }

    /// Compares the models Xcode saved inside the mapping model with the model files now.
    private static func outOfDate(_ mapping: MappingModel, at url: URL, model: VersionedModel) -> [CheckFinding] {
        guard let snapshot = MappingModelSnapshot.read(at: url), let (source, destination) = versions(of: mapping, in: model) else { return [] }
        let differences = MappingModelSnapshot.differences(snapshot.source, from: source).map { "\(source.name): \($0)" }
            + MappingModelSnapshot.differences(snapshot.destination, from: destination).map { "\(destination.name): \($0)" }
        guard !differences.isEmpty else { return [] }
        return [CheckFinding(.error, .mappingModelOutOfDate, at: url.lastPathComponent,
                             "made against other versions of the models than the files have now (\(differences.joined(separator: "; "))): "
                                + "the compiled mapping model keeps the old version hashes, so Core Data does not find it for a store "
                                + "(\"Can't find mapping model for migration\"); open it in Xcode and re-save it")]
    }
}
