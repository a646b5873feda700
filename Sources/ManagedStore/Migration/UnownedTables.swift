import Foundation
internal import GRDB

/// Core Data keeps tables of its own beside the model's: persistent history (`ACHANGE`,
/// `ATRANSACTION`, `ATRANSACTIONSTRING`, entities numbered from 16001 in `Z_PRIMARYKEY`).
/// A migration that writes a new file must carry them over unchanged, or the app's history
/// tracking silently starts again from nothing.
enum UnownedTables {
    /// Tables every store has whatever its model: the new file already has its own.
    private static let storeBookkeeping: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

    /// Copies, from the database attached as `sourceName` into main, every table neither model
    /// owns (definition, rows, indexes) and the `Z_PRIMARYKEY` rows of entities neither model numbers.
    static func copy(from sourceName: String, source: StoreSchema, destination: StoreSchema, in db: Database) throws {
        let owned = storeBookkeeping
            .union([source, destination].flatMap { $0.tables.map(\.name) + $0.joinTables.map(\.name) })
        let definitions = try Row.fetchAll(db, SQLRequest(literal: """
            SELECT type, name, tbl_name, sql FROM \(sql: sourceName).sqlite_master
            WHERE type IN ('table', 'index') AND sql IS NOT NULL AND tbl_name NOT LIKE 'sqlite_%'
            ORDER BY type DESC, name
            """))
        for definition in definitions {
            let table: String = definition["tbl_name"]
            guard !owned.contains(table) else { continue }
            try db.execute(sql: definition["sql"])
            if definition["type"] == "table" {
                try db.execute(literal: "INSERT INTO main.\(identifier: table) SELECT * FROM \(sql: sourceName).\(identifier: table)")
            }
        }
        let numbered = max(source.entities.count, destination.entities.count)
        try db.execute(literal: """
            INSERT INTO main.Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX)
            SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM \(sql: sourceName).Z_PRIMARYKEY WHERE Z_ENT > \(numbered)
            """)
    }
}
