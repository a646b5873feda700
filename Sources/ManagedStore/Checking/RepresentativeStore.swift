import Foundation

/// Writes a store of one model version filled with representative objects, for trial
/// migrations: five objects of every concrete entity (sub-entities included), every stored
/// attribute filled with edge values (empty and long strings, the extreme integers, huge and tiny
/// numbers, far dates, empty, small and large binary data, the large one kept in external storage
/// where the attribute allows it), the last object with every optional attribute left empty, and
/// every relationship in several shapes (empty, one, many; both sides of inverses consistent).
public enum RepresentativeStore {
    /// How many objects of each concrete entity.
    public static let objectsPerEntity = 5
    /// Large enough for Core Data (and the engine) to keep it outside the store when allowed.
    static let largeBinaryLength = 150_000

    /// Creates the store at `url` (nothing may be there) and saves the objects.
    /// `skipping`: entities to make no objects of (those the route cannot migrate, reported apart).
    public static func write(at url: URL, model: ManagedObjectModel, skipping: Set<String> = [],
                             options: StoreOptions = StoreOptions()) throws {
        let store = try PersistentStore.create(at: url, model: model, options: options)
        // Closing after the save (or its error, which is thrown): a failed close loses nothing the check reads.
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        var objects: [String: [ManagedObject]] = [:]
        let concrete = model.entities.filter { !$0.isAbstract && !skipping.contains($0.name) }
        for (position, entity) in concrete.enumerated() {
            // Constrained values must differ across the hierarchy's table too: they are numbered per entity.
            let constrained = Set((model.ancestors(of: entity.name) + [entity]).flatMap { $0.uniquenessConstraints.joined() })
            objects[entity.name] = try (0..<count(of: entity, among: concrete, in: model)).map { index in
                let object = try context.insertObject(entityName: entity.name)
                for attribute in model.allAttributes(of: entity.name) where !attribute.isTransient && !attribute.isDerived {
                    if attribute.isOptional && index == objectsPerEntity - 1 { continue }
                    let value = constrained.contains(attribute.name)
                        ? plainValue(for: attribute, index: (position + 1) * 100_000 + index, entity: entity.name)
                        : value(for: attribute, index: index, entity: entity.name)
                    object.setValue(value, forKey: attribute.name)
                }
                return object
            }
        }
        var linked: Set<String> = []
        for entity in model.entities where !entity.isAbstract && !skipping.contains(entity.name) {
            for relationship in model.allRelationships(of: entity.name) where !relationship.isTransient {
                let key = "\(entity.name).\(relationship.name)"
                let inverse = model.inverse(of: relationship)
                // One side of each inverse pair is set; the context keeps the other. The to-one side
                // is preferred, so that every to-many owner gets its share.
                if let inverse, relationship.isToMany, !inverse.isToMany { continue }
                if let inverse, linked.contains("\(relationship.destinationEntityName).\(inverse.name)") { continue }
                linked.insert(key)
                let targets = model.entities.filter { !$0.isAbstract && model.entity($0.name, isKindOf: relationship.destinationEntityName) }
                    .flatMap { objects[$0.name] ?? [] }
                guard !targets.isEmpty else { continue }
                for (index, object) in (objects[entity.name] ?? []).enumerated() {
                    link(object, relationship, inverse: inverse, index: index, targets: targets)
                }
            }
        }
        try context.save()
    }

    /// `objectsPerEntity`, or more when each object of a to-one relationship must give a required
    /// to-many inverse its member and there are more owners than that (a book needs a page,
    /// and so does each of its sub-entities' objects).
    private static func count(of entity: EntityDescription, among concrete: [EntityDescription], in model: ManagedObjectModel) -> Int {
        model.allRelationships(of: entity.name).reduce(objectsPerEntity) { count, relationship in
            guard !relationship.isToMany, !relationship.isTransient, let inverse = model.inverse(of: relationship),
                  inverse.isToMany, !inverse.isOptional || inverse.minCount > 0 else { return count }
            let owners = concrete.filter { model.entity($0.name, isKindOf: relationship.destinationEntityName) }.count * objectsPerEntity
            return max(count, owners)
        }
    }

    /// Sets one relationship of the `index`th object: a to-one to a target (two objects share
    /// the first; the last none, when allowed and nothing requires it); a to-many to none, one,
    /// all, or two targets.
    private static func link(_ object: ManagedObject, _ relationship: RelationshipDescription, inverse: RelationshipDescription?,
                             index: Int, targets: [ManagedObject]) {
        let last = objectsPerEntity - 1
        if !relationship.isToMany {
            // A required to-many inverse needs every target to get a member, and a to-one inverse
            // (one-to-one) takes a target from its previous owner: one target per object then.
            let spread = inverse.map { !$0.isToMany || !$0.isOptional } ?? false
            if relationship.isOptional && !spread && index == last { return }
            let choice = spread || index > last ? index : [0, 0, 1, 2, 3][index]
            object.setObject(targets[choice % targets.count], forKey: relationship.name)
            return
        }
        var chosen: [ManagedObject]
        switch index {
        case 0: chosen = relationship.isOptional ? [] : [targets[0]]
        case 1: chosen = [targets[0]]
        case 2: chosen = targets
        case 3: chosen = Array(targets.prefix(2))
        default: chosen = [targets[min(3, targets.count - 1)]]
        }
        if relationship.maxCount > 0 { chosen = Array(chosen.prefix(relationship.maxCount)) }
        if chosen.count < relationship.minCount { chosen = Array(targets.prefix(relationship.minCount)) }
        for target in chosen { object.addObject(target, forKey: relationship.name) }
    }

    /// The `index`th edge value of an attribute's type (plain, distinct values past the edge cases).
    static func value(for attribute: AttributeDescription, index: Int, entity: String) -> AttributeValue {
        if index >= objectsPerEntity { return plainValue(for: attribute, index: index, entity: entity) }
        let long = String(repeating: "Ünïcödé 🙂 \"quoted\" 'single' \\ line\nbreak ", count: 250)
        switch attribute.type {
        case .string:
            return .string(["", long, "\(entity).\(attribute.name) \(index)", "a", "%_ LIKE wildcards"][index % 5])
        case .integer16: return .integer([Int64(Int16.min), Int64(Int16.max), 0, -1, 1][index % 5])
        case .integer32: return .integer([Int64(Int32.min), Int64(Int32.max), 0, -1, 1][index % 5])
        case .integer64, .objectID: return .integer([Int64.min, Int64.max, 0, -1, 1][index % 5])
        case .double: return .double([-Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude, 0, Double.leastNonzeroMagnitude, -1.5][index % 5])
        case .float: return .double([-Double(Float.greatestFiniteMagnitude), Double(Float.greatestFiniteMagnitude), 0, 0.5, -1.5][index % 5])
        case .decimal:
            // The force unwraps here and below are of constants (or numbers formatted to fit)
            // that always parse.
            return .decimal([Decimal(string: "-99999999999999999999.999")!, Decimal(string: "12345678901234567890.5")!, 0,
                             Decimal(string: "0.000001")!, -1][index % 5])
        case .boolean: return .bool(index % 2 == 0)
        case .date:
            return .date([Date(timeIntervalSinceReferenceDate: -63_114_076_800), Date(timeIntervalSinceReferenceDate: 63_113_904_000),
                          Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 0),
                          Date(timeIntervalSinceReferenceDate: 123_456_789.125)][index % 5])
        case .binary, .transformable:
            switch index % 5 {
            case 0: return .data(Data())
            case 1: return .data(Data((0..<largeBinaryLength).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
            case 2: return .data(Data([0, 255, 0]))
            case 3: return .data(Data("\(entity).\(attribute.name)".utf8))
            default: return .data(Data([1]))
            }
        case .uuid: return .uuid(uuid(index))
        case .uri: return .uri(URL(string: ["https://example.com/", "file:///tmp/a%20b", "x-coredata://store/Entity/p\(index)",
                                            "mailto:a@example.com", "https://example.com/?q=1"][index % 5])!)
        }
    }

    /// Distinct ordinary values for the extra objects beyond the edge cases.
    private static func plainValue(for attribute: AttributeDescription, index: Int, entity: String) -> AttributeValue {
        switch attribute.type {
        case .string: .string("\(entity).\(attribute.name) \(index)")
        case .integer16, .integer32, .integer64, .objectID: .integer(Int64(index))
        case .double, .float: .double(Double(index) + 0.25)
        case .decimal: .decimal(Decimal(index))
        case .boolean: .bool(index % 2 == 0)
        case .date: .date(Date(timeIntervalSinceReferenceDate: Double(index) * 86_400))
        case .binary, .transformable: .data(Data("\(entity).\(attribute.name) \(index)".utf8))
        case .uuid: .uuid(uuid(index))
        case .uri: .uri(URL(string: "https://example.com/\(index)")!)
        }
    }

    private static func uuid(_ index: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index + 1))!
    }
}
