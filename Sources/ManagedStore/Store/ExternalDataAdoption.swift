import Foundation
internal import GRDB

/// The second half of copying a tagged column as it is, from one store to another with SQL: the
/// files the copied tags name are linked from the source's support folder into the destination's.
/// Every file must keep a single owner (saving removes a replaced value's file), so a file that
/// two destination rows name (two entity mappings of one source entity) is copied under a new
/// name for every row after the first.
enum ExternalDataAdoption {
    static func adoptFiles(of destination: PersistentStore, from source: PersistentStore) throws {
        let references = try destination.database.read { db in try externalReferences(in: destination, db) }
        guard !references.isEmpty else { return }
        let from = source.externalData, to = destination.externalData
        var owned = Set<String>()
        var linked: [String] = []
        var duplicates: [Reference] = []
        for reference in references {
            guard owned.insert(reference.fileName).inserted else {
                duplicates.append(reference)
                continue
            }
            // Files the per-object path saved are in the destination's folder already.
            if FileManager.default.fileExists(atPath: to.file(named: reference.fileName).path) { continue }
            guard FileManager.default.fileExists(atPath: from.file(named: reference.fileName).path) else {
                throw StoreError(path: source.url.path, mismatch: .externalData(
                    table: reference.table, column: reference.column, primaryKey: reference.primaryKey,
                    problem: .missingFile(path: from.file(named: reference.fileName).path)))
            }
            linked.append(reference.fileName)
        }
        try to.add(linked, from: from)
        for duplicate in duplicates {
            let copy = try to.write(try to.data(named: duplicate.fileName))
            try destination.database.write { db in
                try db.execute(literal: """
                    UPDATE \(coreDataName: duplicate.table) SET \(coreDataName: duplicate.column) = \(ExternalBinaryBlob.external(fileName: copy)) \
                    WHERE Z_PK = \(duplicate.primaryKey)
                    """)
            }
        }
    }

    private struct Reference {
        let table: String
        let column: String
        let primaryKey: Int64
        let fileName: String
    }

    /// Every tagged column of the store naming a file, in table, column and key order.
    private static func externalReferences(in store: PersistentStore, _ db: Database) throws -> [Reference] {
        var references: [Reference] = []
        for entity in store.schema.entities.sorted(by: { $0.number < $1.number }) {
            let attributes = Dictionary(store.model.allAttributes(of: entity.name).map { ($0.name, $0) }) { first, _ in first }
            for column in ExternalDataSave.taggedColumns(of: entity, attributes: attributes) {
                let rows = try Row.fetchAll(db, SQLRequest(literal: """
                    SELECT Z_PK, \(coreDataName: column) AS value FROM \(coreDataName: entity.tableName)
                    WHERE Z_ENT = \(entity.number) AND substr(\(coreDataName: column), 1, 1) = x'02' ORDER BY Z_PK
                    """))
                for row in rows {
                    let key = try RowReader(row: row, table: entity.tableName, path: store.url.path).primaryKey()
                    let blob: Data = row["value"] ?? Data()
                    do {
                        guard case .external(let name) = try ExternalBinaryBlob.content(of: blob) else { continue }
                        references.append(Reference(table: entity.tableName, column: column, primaryKey: key, fileName: name))
                    } catch {
                        throw StoreError(path: store.url.path, mismatch: .externalData(
                            table: entity.tableName, column: column, primaryKey: key, problem: error))
                    }
                }
            }
        }
        return references
    }
}
