/// What a migration pass kept as it was: for each destination entity whose objects all kept
/// their source objects' keys, the source entity and the attributes copied with their values
/// unchanged. A text index of such an entity, over such attributes, describes the new store as
/// well as the old one (`TextIndexCarry`).
struct KeptObjects {
    struct Entity: Equatable {
        var sourceEntity: String
        /// Destination attribute -> the source attribute it was copied from, unchanged.
        var copiedAttributes: [String: String]
    }

    /// By destination entity name.
    var entities: [String: Entity] = [:]

    /// Whether `entity`'s objects came through with their keys, from the entity of the same name,
    /// and each of `attributes` was copied unchanged from the attribute of the same name.
    func keeps(_ entity: String, attributes: [String]) -> Bool {
        guard let kept = entities[entity], kept.sourceEntity == entity else { return false }
        return attributes.allSatisfy { kept.copiedAttributes[$0] == $0 }
    }

    /// An in-place step keeps every row with its key; an attribute matched to a source one keeps
    /// its values when `copiesUnchanged` says so.
    static func inPlace(_ inferred: InferredMapping, from source: ManagedObjectModel, to destination: ManagedObjectModel) -> KeptObjects {
        var kept = KeptObjects()
        for (destinationName, sourceName) in inferred.entityMatches {
            let sourceAttributes = Dictionary(source.allAttributes(of: sourceName).map { ($0.name, $0) }) { first, _ in first }
            var copied: [String: String] = [:]
            for attribute in destination.allAttributes(of: destinationName) {
                guard let match = inferred.propertyMatches[destinationName]?[attribute.name], let from = sourceAttributes[match],
                      copiesUnchanged(attribute, from: from) else { continue }
                copied[attribute.name] = match
            }
            kept.entities[destinationName] = Entity(sourceEntity: sourceName, copiedAttributes: copied)
        }
        return kept
    }

    /// Whether copying `source`'s values into `destination` keeps them as they are: both stored
    /// in the file (not transient, not external), in the same column type, and the destination
    /// required only if the source was (otherwise missing values get the default).
    static func copiesUnchanged(_ destination: AttributeDescription, from source: AttributeDescription) -> Bool {
        !source.isTransient && !source.storesExternally && !destination.isTransient && !destination.storesExternally
            && ColumnType(source.type) == ColumnType(destination.type) && (destination.isOptional || !source.isOptional)
    }
}
