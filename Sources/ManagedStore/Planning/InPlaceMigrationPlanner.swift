import Foundation
internal import GRDB

/// Plans a lightweight migration done in place with SQL alone: columns added, renamed and
/// dropped, tables created, renamed and dropped, entity numbers rewritten, indexes and the
/// bookkeeping tables brought up to date. No object is loaded, so adding an optional attribute
/// takes the same time for a hundred rows as for a million.
///
/// Declines when the change needs rows to move between tables or relationships to change
/// storage (a hierarchy merged, a to-one becoming many-to-many): those migrate by copying.
struct InPlaceMigrationPlanner {
    let inferred: InferredMapping
    let source: StoreSchema
    let destination: StoreSchema

    /// What the planner decided.
    enum Plan {
        /// The step runs in place, with this script.
        case script(InPlaceMigrationScript)
        /// The step must copy the store, for this reason.
        case declined(reason: String)
    }

    /// Why a step cannot run in place, thrown inside the planner and returned as `Plan.declined`.
    private struct Declined: Error {
        let reason: String
    }

    /// The statements, to run in one transaction, given the source's `Z_MAX` per root entity
    /// and the metadata to write; or why the step cannot run in place.
    func plan(sourceMaxima: [String: Int64], metadataPlist: [UInt8]) -> Plan {
        do {
            return .script(try script(sourceMaxima: sourceMaxima, metadataPlist: metadataPlist))
        } catch {
            return .declined(reason: error.reason)
        }
    }

    private func script(sourceMaxima: [String: Int64], metadataPlist: [UInt8]) throws(Declined) -> InPlaceMigrationScript {
        var script = InPlaceMigrationScript()
        if let change = relationshipStorageChange()
            ?? ExternalStorageChange.first(in: inferred, from: source.model, to: destination.model) {
            throw Declined(reason: change)
        }
        let tablePairs = try matchTables()
        let keptIndexes = keptIndexNames(tablePairs)
        for table in source.tables {
            for index in table.indexes where !keptIndexes.contains(index.name) {
                script.statements.append("DROP INDEX IF EXISTS \(coreDataName: index.name)")
            }
        }
        for joinTable in source.joinTables where !keptIndexes.contains(joinTable.reverseIndexName) {
            script.statements.append("DROP INDEX IF EXISTS \(coreDataName: joinTable.reverseIndexName)")
        }
        // Renames go through temporary names, so two tables may swap names.
        let renamed = tablePairs.filter { $0.source.name != $0.destination.name }
        for pair in renamed { script.statements.append(renameTable(pair.source.name, to: pair.source.name + "_MIGRATING")) }
        for pair in renamed { script.statements.append(renameTable(pair.source.name + "_MIGRATING", to: pair.destination.name)) }
        for pair in tablePairs {
            script.statements += columns(pair)
        }
        let pairedSources = Set(tablePairs.map(\.source.name)), pairedDestinations = Set(tablePairs.map(\.destination.name))
        for table in source.tables where !pairedSources.contains(table.name) {
            script.statements.append("DROP TABLE \(coreDataName: table.name)")
        }
        for table in destination.tables where !pairedDestinations.contains(table.name) {
            script.statements.append(SQL(sql: SchemaSQL.createTable(table)))
        }
        script.statements += joinTables()
        for table in destination.tables {
            for index in table.indexes where !keptIndexes.contains(index.name) {
                script.statements.append(SQL(sql: SchemaSQL.createIndex(index, on: table.name)))
            }
        }
        for joinTable in destination.joinTables where !keptIndexes.contains(joinTable.reverseIndexName) {
            script.statements.append(SQL(sql: SchemaSQL.createJoinIndex(joinTable)))
        }
        // Rows of entities the model does not own (Core Data's persistent history, numbered from
        // 16001) stay, as do their tables.
        script.statements.append("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT BETWEEN 1 AND \(max(source.entities.count, destination.entities.count))")
        for entity in destination.entities {
            let sourceRoot = inferred.sourceEntity(for: entity.rootName).flatMap { source.entity(named: $0)?.rootName }
            let maximum = entity.name == entity.rootName ? (sourceRoot.flatMap { sourceMaxima[$0] } ?? 0) : 0
            script.statements.append("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\(entity.number), \(entity.name), \(entity.superNumber), \(maximum))")
        }
        script.metadataPlist = metadataPlist
        return script
    }

    // MARK: Tables

    struct TablePair {
        let source: TableStorage
        let destination: TableStorage
    }

    /// Each destination table and the one source table its rows come from.
    private func matchTables() throws(Declined) -> [TablePair] {
        var pairs: [TablePair] = []
        for table in destination.tables {
            let members = destination.entities.filter { $0.tableName == table.name }
            let sourceTables = Set(members.compactMap { inferred.sourceEntity(for: $0.name).flatMap { source.entity(named: $0)?.tableName } })
            if sourceTables.count > 1 {
                throw Declined(reason: "entities of \(table.rootEntity) come from several tables")
            }
            guard let sourceTableName = sourceTables.first, let sourceTable = source.table(named: sourceTableName) else { continue }
            if pairs.contains(where: { $0.source.name == sourceTableName }) {
                throw Declined(reason: "rows of \(sourceTable.rootEntity) go to several tables")
            }
            pairs.append(TablePair(source: sourceTable, destination: table))
        }
        return pairs
    }

    /// Indexes identical in name and definition on both sides are left alone.
    private func keptIndexNames(_ pairs: [TablePair]) -> Set<String> {
        var kept: Set<String> = []
        for pair in pairs {
            let before = Set(pair.source.indexes.map { SchemaSQL.createIndex($0, on: pair.destination.name) })
            for index in pair.destination.indexes where before.contains(SchemaSQL.createIndex(index, on: pair.destination.name)) {
                kept.insert(index.name)
            }
        }
        let sourceJoins = Set(source.joinTables.map(SchemaSQL.createJoinIndex))
        for joinTable in destination.joinTables where sourceJoins.contains(SchemaSQL.createJoinIndex(joinTable)) {
            kept.insert(joinTable.reverseIndexName)
        }
        return kept
    }

    // MARK: Columns

    /// Destination column -> source column, for the properties matched in this table.
    private func columnSources(_ pair: TablePair) -> [String: String] {
        var sources: [String: String] = [:]
        for entity in destination.entities where entity.tableName == pair.destination.name {
            guard let sourceName = inferred.sourceEntity(for: entity.name), let old = source.entity(named: sourceName) else { continue }
            let matches = inferred.propertyMatches[entity.name] ?? [:]
            for (property, column) in entity.attributeColumns {
                if let oldProperty = matches[property], let oldColumn = old.attributeColumns[oldProperty] {
                    sources[column.name] = oldColumn.name
                }
            }
            for (property, columns) in entity.toOneColumns {
                guard let oldProperty = matches[property], let oldColumns = old.toOneColumns[oldProperty] else { continue }
                sources[columns.key.name] = oldColumns.key.name
                if let entityColumn = columns.entity, let oldEntityColumn = oldColumns.entity { sources[entityColumn.name] = oldEntityColumn.name }
                if let order = columns.orderKey, let oldOrder = oldColumns.orderKey { sources[order.name] = oldOrder.name }
            }
        }
        return sources
    }

    private func columns(_ pair: TablePair) -> [SQL] {
        let table: SQL = "\(coreDataName: pair.destination.name)"
        let sources = columnSources(pair)
        let usedSources = Set(sources.values)
        var statements: [SQL] = []
        for column in pair.source.columns where !usedSources.contains(column.name) {
            statements.append("ALTER TABLE \(table) DROP COLUMN \(coreDataName: column.name)")
        }
        let renames = sources.filter { $0.key != $0.value }.sorted { $0.key < $1.key }
        for (_, old) in renames { statements.append(renameColumn(old, to: old + "_MIGRATING", in: table)) }
        for (new, old) in renames { statements.append(renameColumn(old + "_MIGRATING", to: new, in: table)) }
        for column in pair.destination.columns where sources[column.name] == nil {
            statements.append("ALTER TABLE \(table) ADD COLUMN \(coreDataName: column.name) \(sql: column.type.rawValue)")
        }
        return statements + rowUpdates(pair)
    }

    /// Rows of removed entities go; entity numbers and defaults are rewritten where they change.
    private func rowUpdates(_ pair: TablePair) -> [SQL] {
        let tableName = pair.destination.name
        let table: SQL = "\(coreDataName: tableName)"
        var statements: [SQL] = []
        var renumbering: [Int: Int] = [:]
        var removed: [Int] = []
        for old in source.entities where old.tableName == pair.source.name {
            if let new = inferred.entityMatches.first(where: { $0.value == old.name }).flatMap({ destination.entity(named: $0.key) }) {
                if new.number != old.number { renumbering[old.number] = new.number }
            } else {
                removed.append(old.number)
            }
        }
        if !removed.isEmpty {
            statements.append("DELETE FROM \(table) WHERE Z_ENT IN \(removed.sorted())")
        }
        if !renumbering.isEmpty {
            statements.append("UPDATE \(table) SET Z_ENT = \(caseExpression("Z_ENT", renumbering))")
        }
        for entity in destination.entities where entity.tableName == tableName {
            guard let sourceName = inferred.sourceEntity(for: entity.name) else { continue }
            let matches = inferred.propertyMatches[entity.name] ?? [:]
            let attributes = destination.model.entity(named: entity.name)?.attributes ?? []
            for attribute in attributes where !attribute.isTransient && !attribute.isOptional {
                guard let value = attribute.defaultValue, let column = entity.attributeColumns[attribute.name] else { continue }
                let oldOptional = matches[attribute.name].flatMap { old in
                    source.model.allAttributes(of: sourceName).first { $0.name == old }?.isOptional
                } ?? true
                guard oldOptional else { continue }
                let name: SQL = "\(coreDataName: column.name)"
                statements.append("""
                    UPDATE \(table) SET \(name) = \(StoreValueCoding.databaseValue(value)) \
                    WHERE \(name) IS NULL AND Z_ENT IN \(entity.kindNumbers)
                    """)
            }
            for (_, columns) in entity.toOneColumns {
                guard let entityColumn = columns.entity else { continue }
                let targetRenumbering = Dictionary(uniqueKeysWithValues: source.entities.compactMap { old -> (Int, Int)? in
                    guard let new = inferred.entityMatches.first(where: { $0.value == old.name }).flatMap({ destination.entity(named: $0.key) }),
                          new.number != old.number else { return nil }
                    return (old.number, new.number)
                })
                if !targetRenumbering.isEmpty {
                    let name: SQL = "\(coreDataName: entityColumn.name)"
                    statements.append("UPDATE \(table) SET \(name) = \(caseExpression(name, targetRenumbering)) WHERE \(name) IS NOT NULL")
                }
            }
        }
        return statements
    }

    /// `CASE column WHEN old THEN new … ELSE column END`, the numbers bound.
    private func caseExpression(_ column: SQL, _ mapping: [Int: Int]) -> SQL {
        let cases = mapping.sorted { $0.key < $1.key }.map { old, new -> SQL in "WHEN \(old) THEN \(new)" }
        return "CASE \(column) \(cases.joined(separator: " ")) ELSE \(column) END"
    }

    // MARK: Join tables

    /// Many-to-many tables are kept (renamed when entity numbers change), created or dropped,
    /// each once, though every entity of the owner's hierarchy inherits the relationship.
    private func joinTables() -> [SQL] {
        var statements: [SQL] = []
        var keptSources: Set<String> = []
        var handled: Set<String> = []
        for entity in destination.entities {
            for (property, storage) in entity.toManyStorage {
                guard case .joinTable(let table, let ownerColumn, let memberColumn, _, _) = storage,
                      let joinTable = destination.joinTables.first(where: { $0.name == table }),
                      ownerColumn == joinTable.firstColumn, handled.insert(table).inserted else { continue }
                guard let sourceName = inferred.sourceEntity(for: entity.name),
                      let oldProperty = inferred.propertyMatches[entity.name]?[property],
                      case .joinTable(let oldTable, let oldOwner, let oldMember, _, _)? = source.entity(named: sourceName)?.toManyStorage[oldProperty] else {
                    statements.append(SQL(sql: SchemaSQL.createJoinTable(joinTable)))
                    continue
                }
                keptSources.insert(oldTable)
                if oldTable != table { statements.append(renameTable(oldTable, to: table)) }
                if oldOwner != ownerColumn { statements.append(renameColumn(oldOwner, to: ownerColumn, in: "\(coreDataName: table)")) }
                if oldMember != memberColumn { statements.append(renameColumn(oldMember, to: memberColumn, in: "\(coreDataName: table)")) }
            }
        }
        for table in source.joinTables where !keptSources.contains(table.name) {
            statements.insert("DROP TABLE \(coreDataName: table.name)", at: 0)
        }
        return statements
    }

    private func renameTable(_ old: String, to new: String) -> SQL {
        "ALTER TABLE \(coreDataName: old) RENAME TO \(coreDataName: new)"
    }

    private func renameColumn(_ old: String, to new: String, in table: SQL) -> SQL {
        "ALTER TABLE \(table) RENAME COLUMN \(coreDataName: old) TO \(coreDataName: new)"
    }
}

/// The SQL of an in-place migration, and the new metadata.
struct InPlaceMigrationScript {
    var statements: [SQL] = []
    var metadataPlist: [UInt8] = []
}
