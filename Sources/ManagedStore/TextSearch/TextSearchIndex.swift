import Foundation
internal import GRDB

/// A trigram index of chosen text attributes of one entity, folded as the configuration says
/// (as `CONTAINS[cd]` folds them, for a search that stands in for that predicate), kept in a side
/// file `<store>-search` (0600) so the Core Data tables stay exactly as Apple's Core Data writes
/// them and an Apple-written reader still opens the store. Everything in it can be rebuilt from
/// the store: it is checked against the store before it answers and brought up to date when it
/// is missing, from another store, or stale.
///
/// Each entry remembers the object's `Z_OPT` (its save count), so bringing the index up to date
/// refolds only the objects saved since; staleness is noticed cheaply by comparing
/// (count, largest `Z_PK`, sum of `Z_OPT`) of both sides, and only after another connection
/// wrote the store (`externalChangeToken`).
public final class TextSearchIndex {
    /// The side file's layout; a different one is dropped and rebuilt. Format 3 keeps no
    /// positions in the trigram index (`detail=none`), which format 2's took most of its size for
    /// (about 3.5 times the store). Format 4 keeps each attribute in a text table of its own, so
    /// a title's change does not fold the body again (format 3 kept them in one row).
    static let format = 4

    /// The side file, `<store>-search`.
    public let url: URL
    /// What is indexed, and how text is folded.
    public let configuration: TextIndexConfiguration
    /// How many entries this index folded again or removed since it was opened, when it found
    /// itself missing, foreign or stale (not the app's own saves): zero means every answer came
    /// from the index as it was, without waiting for a rebuild.
    public private(set) var rebuiltEntryCount = 0
    private let side: DatabaseQueue
    private let store: PersistentStore
    private let table: IndexedTable
    /// The store's change token when the index was last known to match it.
    private var checkedChangeToken: Int?
    /// The side file's `schema_version` at that check: another process rebuilding the file in
    /// place (an index a migration marked for rebuilding) empties its tables, which the store's
    /// token does not show.
    private var checkedSideSchema: Int?

    /// Opens (creating when missing) the index beside the store of `context`.
    public init(beside context: ManagedObjectContext, configuration: TextIndexConfiguration) throws {
        store = context.store
        self.configuration = configuration
        table = try IndexedTable(schema: context.schema, configuration: configuration)
        url = Self.url(beside: store)
        try Self.createPrivateFile(at: url)
        side = try DatabaseQueue(path: url.path, configuration: Self.sideConfiguration)
        let identity = TextIndexIdentity(metadata: store.metadata, configuration: configuration).description
        try side.write { db in try Self.prepareSchema(db, identity: identity, configuration: configuration) }
    }

    /// Where the index of this store is kept.
    public static func url(beside store: PersistentStore) -> URL {
        url(besideStoreAt: store.url)
    }

    /// Where the index of the store at `storeURL` (as the store is opened there) is kept: for
    /// callers that measure or remove it without opening the store.
    public static func url(besideStoreAt storeURL: URL) -> URL {
        URL(fileURLWithPath: storeURL.path + "-search")
    }

    /// Objects whose indexed attributes contain `pattern` (folded), by the order attribute,
    /// largest first, then by key, `limit` of them (all when nil) from `offset`; nil for a pattern
    /// that folds to nothing (every object matches: the caller lists them all). The text index is
    /// kept in that order, so a page is read without sorting the matches.
    ///
    /// Patterns of three folded characters or more are looked up by their trigrams, then checked
    /// in the folded text the index keeps (`instr`, bytes as `CONTAINS` compares them); shorter
    /// ones are searched for in that text alone, which spares folding every object's text again,
    /// as a scan of the store would.
    public func primaryKeys(matching pattern: String, limit: Int? = nil, offset: Int = 0) throws -> [Int64]? {
        let folded = configuration.fold(pattern)
        guard !folded.isEmpty else { return nil }
        try refreshIfStale()
        return try side.read { db in
            try TextIndexMatches(configuration: configuration).primaryKeys(
                of: folded, lookingUpTrigrams: configuration.looksUpByTrigrams(pattern), limit: limit, offset: offset, in: db)
        }
    }

    /// Brings the entries of these objects up to date after the caller saved them (an object
    /// that is gone loses its entry). `partly`: objects whose save changed only these indexed
    /// attributes, not the order attribute, and an empty set for those whose save changed none
    /// (a flag, a link): only those attributes are folded again, so a title's change does not
    /// fold a 10 MB body and a flag folds nothing; the entry takes the new save count.
    public func refresh(objects primaryKeys: [Int64], partly: [Int64: Set<String>] = [:]) throws {
        guard !primaryKeys.isEmpty || !partly.isEmpty else { return }
        let changeToken = try store.database.read { db in
            let writer = TextIndexWriter(side: side, table: table, configuration: configuration)
            // An entry another program's save left behind is folded again with the others.
            let behind = try writer.refold(partly, from: db)
            if !primaryKeys.isEmpty || !behind.isEmpty { try writer.copy(primaryKeys + behind, from: db) }
            return try PersistentStore.externalChangeToken(db)
        }
        // Our own save does not move our connection's token; another writer's does.
        if changeToken != checkedChangeToken { checkedChangeToken = nil }
    }

    /// Checks the index against the store unless nothing else wrote the store since the last
    /// check, and updates it when it differs.
    public func refreshIfStale() throws {
        _ = try update(progress: { _ in })
    }

    /// Builds the index, or brings it up to date, now rather than at the first search: a
    /// migration's last stage (`StoreMigrator.textIndex`) and a new store call it, so no search
    /// waits for it. Unlike a search's refresh, what it folds is not counted in
    /// `rebuiltEntryCount`.
    /// - Parameter progress: told the fraction done (0...1) as objects are folded into an empty index.
    /// - Returns: how many entries were folded again or removed (zero when it was up to date).
    @discardableResult
    public func build(progress: (Double) -> Void = { _ in }) throws -> Int {
        let folded = try update(progress: progress)
        rebuiltEntryCount -= folded
        return folded
    }

    /// The check of `refreshIfStale`. - Returns: how many entries were folded again or removed.
    private func update(progress: (Double) -> Void) throws -> Int {
        try store.database.read { db in
            let changeToken = try PersistentStore.externalChangeToken(db)
            let sideSchema = try side.read { side in try Int.fetchOne(side, sql: "PRAGMA schema_version") }
            guard changeToken != checkedChangeToken || sideSchema != checkedSideSchema else { return 0 }
            let writer = TextIndexWriter(side: side, table: table, configuration: configuration)
            var folded = 0
            if try writer.fingerprintOfStore(db) != writer.fingerprintOfIndex() {
                folded = try writer.synchronize(from: db, progress: progress)
                rebuiltEntryCount += folded
            }
            checkedChangeToken = changeToken
            checkedSideSchema = sideSchema
            return folded
        }
    }

    /// The side file's tables: `entry` (key, save count, order value `date`, place in the text
    /// tables), one text table per attribute, `folded_<n>` in the attributes' order (the folded
    /// text and its FTS5 trigrams, row ids the entries' places), `staged` (folded text waiting
    /// for a place). The trigram index records which rows hold each trigram and nothing else
    /// (`detail = none`: no columns, no positions; `columnsize = 0`: no lengths for ranking, which
    /// no search does), so it is a fraction of the text's size.
    private static func prepareSchema(_ db: Database, identity: String, configuration: TextIndexConfiguration) throws {
        // A side file without its meta table (new, or of an older layout) is simply rebuilt.
        let stored = try? String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'identity'")
        guard stored != identity else { return }
        // Every text table of the old layout goes, however many attributes it had (FTS5 drops its own tables with each).
        let textTables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
        for table in textTables { try db.execute(literal: "DROP TABLE \(identifier: table)") }
        let textColumns = configuration.sideColumns.map { column -> SQL in "\(column) TEXT NOT NULL" }.joined(separator: ", ")
        try db.execute(literal: """
            DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS entry; DROP TABLE IF EXISTS staged;
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE entry (pk INTEGER PRIMARY KEY, opt INTEGER NOT NULL, date, position INTEGER UNIQUE);
            CREATE INDEX entry_order ON entry (date, pk);
            CREATE TABLE staged (pk INTEGER PRIMARY KEY, \(textColumns));
            """)
        for table in configuration.foldedTables {
            try db.execute(literal: """
                CREATE VIRTUAL TABLE \(table) USING fts5(text, tokenize = 'trigram case_sensitive 1', detail = none, columnsize = 0)
                """)
        }
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('identity', ?)", arguments: [identity])
    }

    /// Makes whoever opens the side file at `url` next rebuild it (its identity removed, in
    /// place). Never unlinked: another process may have it open, and a new file of the same name
    /// would share that process's `-shm`, the index of another file's log.
    /// A missing file has nothing to invalidate, and is not made here (it would not be 0600).
    static func invalidate(at url: URL) throws {
        guard DurableFiles.exists(url) else { return }
        try DatabaseQueue(path: url.path, configuration: sideConfiguration).write { db in try db.execute(sql: "DROP TABLE IF EXISTS meta") }
    }

    /// Write-ahead logging (GRDB sets `synchronous = NORMAL` with it): a save's commit to the
    /// side file waits for no fsync (a rollback journal took four), only a checkpoint does. A
    /// power cut can lose the side file's last commits but never damage it, and an index that
    /// lost them no longer matches the store's save counts, so it is brought up to date like any
    /// stale one. The log is cut back to 4 MB after each checkpoint: a first fill writes the
    /// whole index through it, which would otherwise stay on disk beside the file while the app runs.
    private static var sideConfiguration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(StoreOptions.defaultBusyTimeout)
        configuration.journalMode = .wal
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_size_limit = 4194304") }
        return configuration
    }

    /// The file 0600 before SQLite opens it (SQLite gives its `-wal` and `-shm` the same mode).
    private static func createPrivateFile(at url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw StoreError(path: url.path, .cannotCreateSearchIndex(.lastSystemError))
        }
        close(descriptor)
    }
}
