import Foundation
import GRDB
import ManagedStore

/// A trigram index of the notes' titles and bodies, folded as `CONTAINS[cd]` folds them, kept in
/// a side file `<store>-search` (0600) so the Core Data tables stay exactly as Apple's Core Data
/// writes them. Everything in it can be rebuilt from the store: it is checked against the store
/// before it answers and brought up to date when it is missing, from another store, or stale.
///
/// Each entry remembers the note's `Z_OPT` (its save count), so bringing the index up to date
/// refolds only the notes saved since; staleness is noticed cheaply by comparing
/// (count, largest `Z_PK`, sum of `Z_OPT`) of both sides, and only after another connection
/// wrote the store (`PRAGMA data_version`).
public final class NoteSearchIndex {
    /// The side file's layout; a different one is dropped and rebuilt.
    static let format = 2
    /// Trigram search needs at least three characters.
    static let shortestIndexedPattern = 3

    public let url: URL
    private let side: DatabaseQueue
    private let store: PersistentStore
    private let table: NoteTable
    /// The store's `data_version` when the index was last known to match it.
    private var checkedDataVersion: Int?

    /// Opens (creating when missing) the index beside the store of `context`.
    public init(beside context: ManagedObjectContext) throws {
        store = context.store
        table = try NoteTable(schema: context.schema)
        url = Self.url(beside: store)
        try Self.createPrivateFile(at: url)
        var configuration = Configuration()
        configuration.busyMode = .timeout(StoreOptions.defaultBusyTimeout)
        side = try DatabaseQueue(path: url.path, configuration: configuration)
        try side.write { db in try Self.prepareSchema(db, identity: Self.identity(of: store)) }
    }

    /// Whether the index answers this pattern: three folded characters or more (trigrams).
    public static func canAnswer(_ pattern: String) -> Bool {
        SearchFolding.caseAndAccentFolded(pattern).unicodeScalars.count >= shortestIndexedPattern
    }

    /// Where the index of this store is kept.
    public static func url(beside store: PersistentStore) -> URL {
        URL(fileURLWithPath: store.url.path + "-search")
    }

    /// Notes whose title or body contains `pattern` (ignoring case and accents), newest first as
    /// `NoteBook.newestFirst` orders them, `limit` of them (all when nil) from `offset`; nil when
    /// the pattern is too short for the index (the caller scans instead). The text index is kept
    /// in that order, so a page is read without sorting the matches.
    public func primaryKeys(matching pattern: String, limit: Int? = nil, offset: Int = 0) throws -> [Int64]? {
        guard Self.canAnswer(pattern) else { return nil }
        let folded = SearchFolding.caseAndAccentFolded(pattern)
        try refreshIfStale()
        let phrase = "\"" + folded.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        return try side.read { db in
            try Int64.fetchAll(db, sql: """
                SELECT (SELECT pk FROM entry WHERE position = found.rowid) FROM folded AS found WHERE folded MATCH ?
                ORDER BY found.rowid DESC LIMIT ? OFFSET ?
                """, arguments: [phrase, limit ?? -1, max(offset, 0)])
        }
    }

    /// Brings the entries of these notes up to date after the app saved them (a note that is
    /// gone loses its entry).
    public func refresh(notes primaryKeys: [Int64]) throws {
        guard !primaryKeys.isEmpty else { return }
        let dataVersion = try store.database.read { db in
            try NoteIndexWriter(side: side, table: table).copy(primaryKeys, from: db)
            return try Self.dataVersion(db)
        }
        // Our own save does not move our connection's data_version; another writer's does.
        if dataVersion != checkedDataVersion { checkedDataVersion = nil }
    }

    /// Checks the index against the store unless nothing else wrote the store since the last
    /// check, and updates it when it differs.
    public func refreshIfStale() throws {
        try store.database.read { db in
            let dataVersion = try Self.dataVersion(db)
            guard dataVersion != checkedDataVersion else { return }
            let writer = NoteIndexWriter(side: side, table: table)
            if try writer.fingerprintOfStore(db) != writer.fingerprintOfIndex() {
                try writer.synchronize(from: db)
            }
            checkedDataVersion = dataVersion
        }
    }

    private static func dataVersion(_ db: Database) throws -> Int? {
        try Int.fetchOne(db, sql: "PRAGMA data_version")
    }

    /// Which store (and which shape of its notes) the entries were made from.
    private static func identity(of store: PersistentStore) -> String {
        let noteHash = store.metadata.versionHashes["Note"].map { $0.map { String(format: "%02x", $0) }.joined() } ?? "-"
        return "\(format) \(store.metadata.storeUUID) \(noteHash)"
    }

    private static func prepareSchema(_ db: Database, identity: String) throws {
        // A side file without its meta table (new, or of an older layout) is simply rebuilt.
        let stored = try? String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'identity'")
        guard stored != identity else { return }
        try db.execute(sql: """
            DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS entry; DROP TABLE IF EXISTS folded;
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            DROP TABLE IF EXISTS staged;
            CREATE TABLE entry (pk INTEGER PRIMARY KEY, opt INTEGER NOT NULL, date, position INTEGER UNIQUE);
            CREATE INDEX entry_order ON entry (date, pk);
            CREATE VIRTUAL TABLE folded USING fts5(title, body, tokenize = 'trigram case_sensitive 1');
            CREATE TABLE staged (pk INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL);
            """)
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('identity', ?)", arguments: [identity])
    }

    /// The file 0600 before SQLite opens it (SQLite gives its journal the same mode).
    private static func createPrivateFile(at url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw StoreError(path: url.path, reason: "cannot create the search index: \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }
}

/// Where the store keeps notes: the table and the columns the index copies.
struct NoteTable {
    let name: String
    let title: String
    let body: String
    let date: String

    init(schema: StoreSchema) throws {
        guard let entity = schema.entity(named: "Note"), let title = entity.attributeColumns["title"]?.name,
              let body = entity.attributeColumns["body"]?.name, let date = entity.attributeColumns["dateCreated"]?.name else {
            throw StoreError(path: "", reason: "the model has no Note entity with a title, body and date to search")
        }
        self.name = entity.tableName
        self.title = title
        self.body = body
        self.date = date
    }
}
