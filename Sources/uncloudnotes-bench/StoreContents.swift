import Foundation
import GRDB
import ManagedStore

/// What the benchmark compares between the engine's and the baseline's result of a migration.
struct StoreContents {
    /// Each table and index by name, with a table's column names sorted (the engine orders them
    /// its own way).
    var schema: [String]
    /// Objects of each entity of the version, in the model's order.
    var counts: [Int]
    /// Every attachment's values as text, in the order of their notes.
    var attachments: [[String]]

    init(url: URL, version: ManagedObjectModel) throws {
        let store = try PersistentStore.open(at: url, model: version, options: StoreOptions(isReadOnly: true))
        // Closing a read-only store cannot lose anything.
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        counts = try version.entities.map { try context.count(FetchRequest(entityName: $0.name)) }
        (schema, attachments) = try store.database.read { db in
            let objects = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index') AND sql IS NOT NULL ORDER BY type, name")
            let schema = try objects.map { row -> String in
                let (type, name): (String, String) = (row["type"], row["name"])
                guard type == "table" else { return "index \(name)" }
                return "table \(name) (" + (try db.columns(in: name).map(\.name).sorted().joined(separator: ", ")) + ")"
            }
            guard try db.tableExists("ZATTACHMENT") else { return (schema, []) }
            let present = Set(try db.columns(in: "ZATTACHMENT").map(\.name))
            let values = ["ZNOTE", "Z_ENT", "Z_OPT", "ZDATECREATED", "ZCAPTION", "ZWIDTH", "ZHEIGHT"].filter(present.contains)
                + ["length(ZIMAGE)", "hex(substr(ZIMAGE, 1, 32))"]
            let sql = "SELECT " + values.map { "quote(\($0))" }.joined(separator: ", ") + " FROM ZATTACHMENT ORDER BY ZNOTE, Z_PK"
            let attachments = try Row.fetchAll(db, sql: sql).map { row in (0..<values.count).map { (row[$0] as String?) ?? "NULL" } }
            return (schema, attachments)
        }
    }

    /// The attachment at `index` (in the order of their notes) as one line, "none" past the last.
    func attachment(_ index: Int) -> String {
        index < attachments.count ? attachments[index].joined(separator: " | ") : "none"
    }
}
