internal import GRDB

/// The source objects an entity mapping migrates: the rows `s` of a table of the attached source
/// (`src`), with as much of the mapping's filter as SQL can express.
struct SourceSelection {
    let table: String
    /// `s.Z_ENT = … AND …`, on the source rows `s`.
    let conditions: SQL
    /// True when a filter selects among the entity's rows: their objects are numbered densely
    /// then, as the per-object path numbers them, rather than keeping the source's keys with gaps.
    /// A filter that holds for every row (`TRUEPREDICATE`) filters nothing.
    let isFiltered: Bool
    /// What of the filter SQL cannot express, evaluated per object.
    let residual: ObjectPredicate?

    /// `src.<table> s WHERE …`.
    var from: SQL { "src.\(identifier: table) s WHERE \(conditions)" }

    /// The selection of `mapping`; nil for a mapping without a source entity.
    init?(_ mapping: EntityMapping, source: StoreSchema) {
        guard let name = mapping.sourceEntityName, let entity = source.entity(named: name) else { return nil }
        var conditions: SQL = "s.Z_ENT = \(sql: String(entity.number))"
        var isFiltered = false
        var residual: ObjectPredicate?
        if let filter = mapping.filterPredicate, !mapping.takesEverySourceObject {
            let compiler = PredicateSQLCompiler(schema: source, entity: entity, variables: [:], alias: "s", tablePrefix: "src.")
            let split = compiler.split(filter)
            if let sql = split.sql {
                conditions += " AND \(sql)"
                isFiltered = true
            }
            residual = split.residual
        }
        self.table = entity.tableName
        self.conditions = conditions
        self.isFiltered = isFiltered
        self.residual = residual
    }
}
