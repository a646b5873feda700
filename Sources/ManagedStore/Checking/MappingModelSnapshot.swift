import Foundation

/// The copies of its source and destination models that Xcode keeps inside a mapping model
/// (`sourcemodeldata`, `destinationmodeldata`): what the mapping model was made against. When the
/// model files changed since, the compiled mapping model carries the old version hashes and Core
/// Data never finds it for a store ("Can't find mapping model for migration"). What goes into a
/// version hash and is read here: entity and property names, and each property's optional and
/// transient flags and attribute type, which Xcode's own model classes (`XDUMLClassImp`) keep as
/// "stereotype" tagged values.
public struct MappingModelSnapshot: Sendable, Equatable {
    /// What the snapshot says of one property; nil where the archive does not say.
    public struct Property: Sendable, Equatable {
        /// The attribute's type; nil for a relationship.
        public var attributeType: AttributeType?
        public var isOptional: Bool?
        public var isTransient: Bool?

        public init(attributeType: AttributeType? = nil, isOptional: Bool? = nil, isTransient: Bool? = nil) {
            self.attributeType = attributeType
            self.isOptional = isOptional
            self.isTransient = isTransient
        }
    }

    /// Entity name -> its own properties by name, as the source model was when the mapping was made.
    public var source: [String: [String: Property]]
    /// The same for the destination model.
    public var destination: [String: [String: Property]]

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
    public static func differences(_ snapshot: [String: [String: Property]], from version: ManagedObjectModel) -> [String] {
        var found: [String] = []
        let current = Dictionary(version.entities.map { ($0.name, properties(of: $0)) }, uniquingKeysWith: { $0.merging($1) { old, _ in old } })
        for name in Set(snapshot.keys).union(current.keys).sorted() {
            switch (snapshot[name], current[name]) {
            case (nil, _?): found.append("entity \(name) is new since")
            case (_?, nil): found.append("entity \(name) is gone since")
            case (let old?, let new?):
                found += Set(new.keys).subtracting(old.keys).sorted().map { "\(name).\($0) is new since" }
                found += Set(old.keys).subtracting(new.keys).sorted().map { "\(name).\($0) is gone since" }
                for property in Set(old.keys).intersection(new.keys).sorted() {
                    found += changes(of: "\(name).\(property)", from: old[property] ?? Property(), to: new[property] ?? Property())
                }
            default: break
            }
        }
        return found
    }

    /// The model's own properties of an entity, as a snapshot would record them.
    private static func properties(of entity: EntityDescription) -> [String: Property] {
        var result: [String: Property] = [:]
        for attribute in entity.attributes {
            result[attribute.name] = Property(attributeType: attribute.type, isOptional: attribute.isOptional, isTransient: attribute.isTransient)
        }
        for relationship in entity.relationships {
            result[relationship.name] = Property(isOptional: relationship.isOptional, isTransient: relationship.isTransient)
        }
        return result
    }

    /// One phrase per flag or type that differs, where the snapshot says what it was.
    private static func changes(of name: String, from old: Property, to new: Property) -> [String] {
        var found: [String] = []
        if let before = old.attributeType, let now = new.attributeType, before != now {
            found.append("\(name) was \(before.rawValue), is \(now.rawValue) now")
        }
        if let before = old.isOptional, let now = new.isOptional, before != now {
            found.append("\(name) was \(before ? "optional" : "required"), is \(now ? "optional" : "required") now")
        }
        if let before = old.isTransient, let now = new.isTransient, before != now {
            found.append("\(name) was \(before ? "transient" : "stored"), is \(now ? "transient" : "stored") now")
        }
        return found
    }

    /// Entity -> own properties of an archived Xcode model (base64 text of a keyed archive).
    private static func entities(inArchive base64: String) -> [String: [String: Property]]? {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters),
              let archive = try? KeyedArchive(data),
              case .dictionary(let model) = archive.root,
              let package = model["_xd_rootPackage"].map(archive.resolve),
              case .dictionary(let packageFields) = package,
              let classes = dictionary(packageFields["XDBucketForClassesstorage"], in: archive) else { return nil }
        var entities: [String: [String: Property]] = [:]
        for (name, entity) in classes {
            guard case .dictionary(let fields) = entity else { continue }
            let owned = dictionary(fields["XDBucketForOwnedAttributesstorage"], in: archive) ?? [:]
            entities[name] = owned.mapValues { property(from: $0, in: archive) }
        }
        return entities
    }

    /// A property's flags and type from its stereotypes: each a set of tagged values, a tag's
    /// value being its `_default`.
    private static func property(from value: PropertyListValue, in archive: KeyedArchive) -> Property {
        guard case .dictionary(let fields) = value,
              let stereotypes = dictionary(fields["XDBucketForStereotypesstorage"], in: archive) else { return Property() }
        var tags: [String: PropertyListValue] = [:]
        for stereotype in stereotypes.values {
            guard case .dictionary(let stereotypeFields) = stereotype,
                  let owned = dictionary(stereotypeFields["XDBucketForOwnedAttributesstorage"], in: archive) else { continue }
            for (tag, tagged) in owned {
                if case .dictionary(let taggedFields) = tagged, let value = taggedFields["_default"] { tags[tag] = archive.resolve(value) }
            }
        }
        var property = Property()
        if case .integer(let code)? = tags["XD_PAttK_attributeType"] {
            property.attributeType = AttributeType.allCases.first { Int64($0.versionHashCode) == code }
        }
        if case .bool(let flag)? = tags["XD_PPSK_isOptional"] { property.isOptional = flag }
        if case .bool(let flag)? = tags["XD_PPSK_isTransient"] { property.isTransient = flag }
        return property
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
