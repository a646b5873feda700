import Foundation

/// The copies of its source and destination models that Xcode keeps inside a mapping model
/// (`sourcemodeldata`, `destinationmodeldata`): what the mapping model was made against. When the
/// model files changed since, the compiled mapping model carries the old version hashes and Core
/// Data never finds it for a store ("Can't find mapping model for migration"). Only entity and
/// property names are read from these archives (Xcode's own model classes, `XDUMLClassImp`).
public struct MappingModelSnapshot: Sendable, Equatable {
    /// Entity name -> its own property names, as the source model was when the mapping was made.
    public var source: [String: Set<String>]
    /// The same for the destination model.
    public var destination: [String: Set<String>]

    /// The snapshots in an `.xcmappingmodel`; nil when it has none (mapping models not written
    /// by Xcode) or they cannot be read.
    public static func read(at url: URL) -> MappingModelSnapshot? {
        let file = url.pathExtension == "xcmappingmodel" ? url.appendingPathComponent("xcmapping.xml") : url
        // A mapping model without readable embedded models has no snapshot to compare (documented above: nil).
        guard let tree = try? XMLTreeReader.read(contentsOf: file, displayName: file.path),
              let document = try? XMLStoreDocument(root: tree, fileName: file.path),
              let root = document.objects.values.first(where: { $0.type == "XDDEVMAPPINGMODEL" }),
              let source = root.attributes["sourcemodeldata"].flatMap(entities(inArchive:)),
              let destination = root.attributes["destinationmodeldata"].flatMap(entities(inArchive:)) else { return nil }
        return MappingModelSnapshot(source: source, destination: destination)
    }

    /// How the snapshot of one side differs from a model version: one phrase per difference.
    public static func differences(_ snapshot: [String: Set<String>], from version: ManagedObjectModel) -> [String] {
        var found: [String] = []
        let current = Dictionary(version.entities.map { ($0.name, Set($0.ownPropertyNames)) }, uniquingKeysWith: { $0.union($1) })
        for name in Set(snapshot.keys).union(current.keys).sorted() {
            switch (snapshot[name], current[name]) {
            case (nil, _?): found.append("entity \(name) is new since")
            case (_?, nil): found.append("entity \(name) is gone since")
            case (let old?, let new?):
                found += new.subtracting(old).sorted().map { "\(name).\($0) is new since" }
                found += old.subtracting(new).sorted().map { "\(name).\($0) is gone since" }
            default: break
            }
        }
        return found
    }

    /// Entity -> property names of an archived Xcode model (base64 text of a keyed archive).
    private static func entities(inArchive base64: String) -> [String: Set<String>]? {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters),
              let archive = try? KeyedArchive(data),
              case .dictionary(let model) = archive.root,
              let package = model["_xd_rootPackage"].map(archive.resolve),
              case .dictionary(let packageFields) = package,
              let classes = dictionary(packageFields["XDBucketForClassesstorage"], in: archive) else { return nil }
        var entities: [String: Set<String>] = [:]
        for (name, entity) in classes {
            guard case .dictionary(let fields) = entity else { continue }
            entities[name] = Set(dictionary(fields["XDBucketForOwnedAttributesstorage"], in: archive)?.keys.map { $0 } ?? [])
        }
        return entities
    }

    /// An archived NSDictionary with string keys, its values resolved.
    private static func dictionary(_ value: PropertyListValue?, in archive: KeyedArchive) -> [String: PropertyListValue]? {
        guard let value, case .dictionary(let fields) = archive.resolve(value),
              case .array(let keys)? = fields["NS.keys"], case .array(let objects)? = fields["NS.objects"],
              keys.count == objects.count else { return nil }
        var result: [String: PropertyListValue] = [:]
        for (key, object) in zip(keys, objects) {
            guard let name = archive.text(archive.resolve(key)) else { continue }
            result[name] = archive.resolve(object)
        }
        return result
    }
}
