internal import GRDB
/// Where migrations meet external storage. A column keeps its bytes through SQL that renames or
/// copies it, which is right only when both versions give it the same layout: an attribute that
/// gains or loses "Allows External Storage" must be converted value by value (files inlined, or
/// tags added and large values written out), so such a step copies objects.
enum ExternalStorageChange {
    /// The first matched attribute whose column layout changes between the versions, described;
    /// nil when none does.
    static func first(in inferred: InferredMapping, from source: ManagedObjectModel,
                      to destination: ManagedObjectModel) -> String? {
        for entity in destination.entities.sorted(by: { $0.name < $1.name }) {
            guard let sourceEntity = inferred.sourceEntity(for: entity.name) else { continue }
            let matches = inferred.propertyMatches[entity.name] ?? [:]
            let old = Dictionary(source.allAttributes(of: sourceEntity).map { ($0.name, $0) }) { first, _ in first }
            for attribute in destination.allAttributes(of: entity.name).sorted(by: { $0.name < $1.name }) {
                guard let match = matches[attribute.name], let before = old[match],
                      before.storesExternally != attribute.storesExternally else { continue }
                return "attribute \(entity.name).\(attribute.name) \(attribute.storesExternally ? "gains" : "loses") "
                    + "external storage, so its values are converted one by one"
            }
        }
        return nil
    }

    /// For a destination attribute that stores externally, the source column a copying migration
    /// may copy into it with SQL, as it is (`s.ZIMAGE`): only when its expression is `$source.<name>`
    /// of a source attribute that stores externally too (the files named are linked across by
    /// `ExternalDataAdoption`). Nil otherwise: the value is then converted by saving objects.
    static func copiedTaggedColumn(_ expression: ValueExpression?, from sourceEntity: EntityStorage,
                                   model: ManagedObjectModel) -> SQL? {
        guard case .keyPath(let base, let components)? = expression, base == nil || base == .variable("source"),
              components.count == 1,
              model.allAttributes(of: sourceEntity.name).first(where: { $0.name == components[0] })?.storesExternally == true,
              let column = sourceEntity.attributeColumns[components[0]] else { return nil }
        return "s.\(identifier: column.name)"
    }
}
