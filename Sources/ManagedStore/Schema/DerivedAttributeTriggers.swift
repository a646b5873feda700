internal import GRDB

/// The SQLite triggers that keep derived attributes up to date, as Core Data writes them into
/// the stores it makes (read off Apple's SampleModel2 store: `pagesCount`, derived as
/// `pages.@count`). They call functions Core Data registers on its connection to hear of the
/// values they change (`StoreSQLFunctions` registers the same names).
///
/// The engine makes them for the derivation Apple's stores show: the count of a to-many
/// relationship whose members hold the owner's key (`relationship.@count`). A store of a model
/// with any other derivation is refused by name rather than made with values nothing updates.
enum DerivedAttributeTriggers {
    /// Why a store of the model cannot be made with its derived attributes kept up to date.
    struct Unsupported: Error, Equatable, CustomStringConvertible {
        var entity: String
        var attribute: String
        var derivation: String

        var description: String {
            "\(entity).\(attribute) is derived as \(derivation); the engine keeps only counts of to-many relationships "
                + "(relationship.@count) up to date in the stores it creates"
        }
    }

    /// The statements creating every trigger the schema's derived attributes need.
    static func statements(for schema: StoreSchema) throws -> [String] {
        try schema.model.entities.flatMap { entity in
            try entity.attributes.filter(\.isDerived).flatMap { attribute in
                try triggers(for: attribute, of: entity.name, in: schema)
            }
        }
    }

    private static func triggers(for attribute: AttributeDescription, of entityName: String, in schema: StoreSchema) throws -> [String] {
        let derivation = attribute.derivationExpression ?? ""
        let unsupported = Unsupported(entity: entityName, attribute: attribute.name, derivation: derivation)
        guard let relationship = countedRelationship(derivation),
              let owner = schema.entity(named: entityName), let column = owner.attributeColumns[attribute.name]?.name,
              case .inverseForeignKey(let memberTable, let key, _, _)? = owner.toManyStorage[relationship] else {
            throw unsupported
        }
        let ownerTable = owner.tableName
        let prefix = "Z_DA_\(memberTable)_\(entityName)_\(attribute.name)"
        func notify(_ function: String, _ row: String) -> String {
            "SELECT \(function)('\(ownerTable)', Z_ENT, Z_PK, '\(attribute.name)', \(column)) FROM \(ownerTable) WHERE Z_PK = \(row);"
        }
        let updated = "NSCoreDataDATriggerUpdatedAffectedObjectValue"
        func counting(_ name: String, _ event: String, _ row: String, _ change: String) -> String {
            "CREATE TRIGGER \(prefix)_PARAMETER_\(name) AFTER \(event) ON \(memberTable) FOR EACH ROW WHEN (\(row) NOT NULL) "
                + "BEGIN UPDATE \(ownerTable) SET \(column) = \(change) WHERE Z_PK = \(row); \(notify(updated, row)) END"
        }
        return [
            counting("INSERT", "INSERT", "NEW.\(key)", "IFNULL(\(column), 0) + 1"),
            counting("UPDATE_INCREMENT", "UPDATE OF \(key)", "NEW.\(key)", "\(column) + 1"),
            counting("UPDATE_DECREMENT", "UPDATE OF \(key)", "OLD.\(key)", "\(column) - 1"),
            counting("DELETE", "DELETE", "OLD.\(key)", "\(column) - 1"),
            "CREATE TRIGGER Z_DA_\(ownerTable)_\(entityName)_\(attribute.name)_SOURCE_INSERT AFTER INSERT ON \(ownerTable) FOR EACH ROW "
                + "BEGIN UPDATE \(ownerTable) SET \(column) = (SELECT IFNULL(COUNT(\(key)), 0) FROM \(memberTable) WHERE \(key) = NEW.Z_PK) "
                + "WHERE Z_PK = NEW.Z_PK; \(notify("NSCoreDataDATriggerInsertUpdatedAffectedObjectValue", "NEW.Z_PK")) END",
        ]
    }

    /// `pages.@count` (as Xcode writes it) or `count:(pages)` (as a compiled model holds it): `pages`.
    private static func countedRelationship(_ derivation: String) -> String? {
        let format = DerivationFormat.predicateFormat(of: derivation)
        guard format.hasPrefix("count:("), format.hasSuffix(")") else { return nil }
        let name = String(format.dropFirst("count:(".count).dropLast())
        return name.isEmpty || name.contains(".") ? nil : name
    }
}
