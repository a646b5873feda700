import Foundation
internal import GRDB

/// Carries a store's text index (the side file of `TextSearchIndex`) across a migration of the
/// store, so the first search after it answers from the index instead of waiting for a rebuild.
///
/// Only when that is provably right: every pass of the migration kept the indexed entity's
/// objects with their keys and copied its indexed attributes and its order attribute unchanged
/// (`KeptObjects`), and the index matched the old store exactly (the same objects, each with the
/// save count its entry was made at). Its identity is then rewritten for the new store and its
/// entries' save counts set to the new store's, in one transaction of the side file, after the
/// new store replaced the old one. An index that is not carried keeps the identity of the old
/// store, whose model version (`TextIndexIdentity.versionHash`) the new store does not have, so
/// it is rebuilt: killed at any moment, the side file describes the store on disk or is rebuilt,
/// never answers for a store it does not describe.
struct TextIndexCarry {
    let url: URL
    /// The side file's identity; nil when it cannot be read (it is then rebuilt).
    let identity: TextIndexIdentity?
    /// Whether every pass so far kept what the index describes.
    private(set) var holds = true

    /// The index beside the store opened at `storeURL`; nil when there is none.
    init?(besideStoreAt storeURL: URL) {
        url = TextSearchIndex.url(besideStoreAt: storeURL)
        guard DurableFiles.exists(url) else { return nil }
        // An unreadable side file (damaged, locked, of an older layout) is simply not carried.
        let line = try? Self.open(url).read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'identity'") }
        identity = line.flatMap { $0 }.flatMap(TextIndexIdentity.init(parsing:))
    }

    /// Takes in what one pass kept.
    mutating func note(_ kept: KeptObjects) {
        guard let identity, kept.keeps(identity.entityName, attributes: identity.attributes + [identity.orderAttribute]) else {
            holds = false
            return
        }
    }

    /// Called once the new store replaced the old one (now at `oldStore`, the backup): rewrites
    /// the index for the new store when every pass kept what it describes and it matched the
    /// old store exactly. Otherwise, or on an error (which is not a failed migration: the store
    /// is migrated, so it is passed to `warn`), it is left as it was, to be rebuilt.
    func finish(from oldStore: URL, model oldModel: ManagedObjectModel, to newStore: URL, model newModel: ManagedObjectModel,
                warn: (String) -> Void) {
        guard holds, let identity else { return }
        do {
            try carry(identity, from: oldStore, model: oldModel, to: newStore, model: newModel)
        } catch {
            // A carry that fails changes nothing (one transaction): the next search rebuilds the index.
            warn("the search index was not carried to the migrated store, so the first search rebuilds it: \(error)")
        }
    }

    /// Rewrites the index for the new store, in one transaction that changes nothing unless the
    /// index matched the old store exactly.
    private func carry(_ identity: TextIndexIdentity, from oldStore: URL, model oldModel: ManagedObjectModel,
                       to newStore: URL, model newModel: ManagedObjectModel) throws {
        let configuration = TextIndexConfiguration(entityName: identity.entityName, attributes: identity.attributes,
                                                   orderAttribute: identity.orderAttribute)
        let oldTable = try IndexedTable(schema: StoreSchema(model: oldModel), configuration: configuration)
        let newTable = try IndexedTable(schema: StoreSchema(model: newModel), configuration: configuration)
        let oldIdentity = identity.describing(try StoreMetadata.read(storeAt: oldStore)).description
        let newIdentity = identity.describing(try StoreMetadata.read(storeAt: newStore)).description
        try Self.open(url).writeWithoutTransaction { db in
            try db.attachForReading(oldStore, as: "carried_from")
            try db.attachForReading(newStore, as: "carried_to")
            try db.inTransaction {
                guard try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'identity'") == oldIdentity,
                      try Self.entriesMatch(oldTable, in: db) else { return .rollback }
                try db.execute(literal: """
                    UPDATE entry SET opt = kept.Z_OPT FROM carried_to.\(newTable.name) AS kept
                    \(newTable.whereClause("kept.Z_PK = entry.pk"))
                    """)
                try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'identity'", arguments: [newIdentity])
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE carried_from")
            try db.execute(sql: "DETACH DATABASE carried_to")
        }
    }

    /// Whether the entries are exactly the old store's objects, each at its current save count,
    /// with no folded text waiting for a place.
    private static func entriesMatch(_ table: IndexedTable, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, SQLRequest(literal: """
            SELECT NOT EXISTS (SELECT 1 FROM staged)
                AND (SELECT COUNT(*) FROM entry) = (SELECT COUNT(*) FROM carried_from.\(table.name)\(table.whereClause()))
                AND (SELECT COUNT(*) FROM entry) = (SELECT COUNT(*) FROM entry JOIN carried_from.\(table.name) AS old
                                                    ON old.Z_PK = entry.pk AND old.Z_OPT = entry.opt\(table.whereClause()))
            """)) ?? false
    }

    private static func open(_ url: URL) throws -> DatabaseQueue {
        try DatabaseQueue(path: url.path, configuration: StoreFiles.waitingConfiguration)
    }
}
