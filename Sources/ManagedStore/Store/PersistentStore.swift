import Foundation
package import GRDB

/// A Core Data-layout SQLite store file opened with one model version.
///
/// Opening checks the store's metadata against the model first (reading nothing else), so a store
/// written by another model version is refused before anything touches it.
public final class PersistentStore: Sendable {
    /// The store's main file.
    public let url: URL
    /// The tables and columns of the model version the store was opened with.
    public let schema: StoreSchema
    /// The metadata as read when the store was opened (its identity and version hashes).
    public let metadata: StoreMetadata
    /// How the store was opened: journal mode, read-only, history, SQL log.
    public let options: StoreOptions
    /// The SQLite connection. All access is serialized by GRDB's queue.
    package let database: DatabaseQueue
    /// Why this store refuses writes though it was not opened read-only: it holds persistent
    /// history and was opened without `recordsPersistentHistory`.
    public let writeRefusal: WriteRefusal?

    /// The model version the store was opened with.
    public var model: ManagedObjectModel { schema.model }
    /// Whether saves record persistent history.
    var recordsHistory: Bool { options.recordsPersistentHistory && !options.leavesHistoryAsIs }

    private init(url: URL, schema: StoreSchema, metadata: StoreMetadata, options: StoreOptions,
                 database: DatabaseQueue, writeRefusal: WriteRefusal? = nil) {
        self.url = url
        self.schema = schema
        self.metadata = metadata
        self.options = options
        self.database = database
        self.writeRefusal = writeRefusal
    }

    /// Creates a new, empty store of the model version; refuses to overwrite an existing file.
    /// The file is created 0600 (SQLite gives its `-wal` and `-shm` the main file's mode): notes
    /// are private.
    /// - Parameter storeUUID: the store's identity; a migration passes the source's, which Core
    ///   Data keeps across migrations. New stores get a new one.
    /// - Parameter url: where the store file is made; nothing may be there yet.
    /// - Parameter model: the model version the store is laid out for and records in its metadata.
    /// - Parameter options: how the new store is opened.
    public static func create(at url: URL, model: ManagedObjectModel, storeUUID: String = UUID().uuidString,
                              options: StoreOptions = StoreOptions()) throws -> PersistentStore {
        let schema = try StoreSchema(model: model)
        let metadata = StoreMetadata(model: model, storeUUID: storeUUID)
        let triggers: [String]
        do {
            triggers = try DerivedAttributeTriggers.statements(for: schema)
        } catch {
            throw StoreError(path: url.path, .cannotCreate(FailureCause(error)))
        }
        try createPrivateFile(at: url)
        do {
            let database = try DatabaseQueue(path: url.path, configuration: configuration(options))
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA auto_vacuum = 2")
                try db.execute(sql: "PRAGMA journal_mode = \(options.journalMode.rawValue)")
                try db.inTransaction {
                    try createTables(schema: schema, metadata: metadata, in: db)
                    for trigger in triggers { try db.execute(sql: trigger) }
                    return .commit
                }
            }
            return PersistentStore(url: url, schema: schema, metadata: metadata, options: options, database: database)
        } catch {
            StoreFiles(url: url).remove()
            throw StoreError(path: url.path, .cannotCreate(FailureCause(error)))
        }
    }

    /// Opens the store at `url`, creating it first when no file is there. Safe when several
    /// processes do this at once: creators take the store's lock in turn, and the new store is
    /// built under a temporary name beside it and linked into place only when complete, so no
    /// process ever opens a half-made store. The draft's names are recorded in the lock file
    /// first, so a creator killed mid-way leaves nothing the next one does not remove.
    public static func openOrCreate(at url: URL, model: ManagedObjectModel,
                                    options: StoreOptions = StoreOptions()) throws -> PersistentStore {
        try openOrCreate(at: url, model: model, options: options, knownMetadata: nil)
    }

    /// The same, with the metadata a migrator's check read (`StoreMigrator.metadataReading`):
    /// used instead of reading them again while the store is as it was then.
    package static func openOrCreate(at url: URL, model: ManagedObjectModel, options: StoreOptions,
                                     knownMetadata: StoreMetadataReading?) throws -> PersistentStore {
        if !FileManager.default.fileExists(atPath: url.path) {
            try createThroughDraft(at: url, model: model, options: options)
        }
        return try open(at: url, model: model, options: options, knownMetadata: knownMetadata)
    }

    private static func createThroughDraft(at url: URL, model: ManagedObjectModel, options: StoreOptions) throws {
        let lock = try StoreLock(for: url)
        _ = try lock.removeRecordedFiles()
        // Another process may have created the store while this one waited for the lock.
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        let draft = StoreFiles(url: URL(fileURLWithPath: url.path + ".new-\(UUID().uuidString)"))
        try lock.record(draft.all.map(\.lastPathComponent))
        defer {
            draft.remove()
            // Were this to fail, the next creator would only find the recorded names gone.
            try? lock.record([])
        }
        try create(at: draft.url, model: model, options: options).close()
        guard link(draft.url.path, url.path) == 0 || errno == EEXIST else {
            throw StoreError(path: url.path, .cannotCreate(.lastSystemError))
        }
    }

    /// Opens an existing store that the model version is compatible with, after checking that its
    /// tables and columns are the ones the model lays out (a mismatch is a `StoreError` whose
    /// `mismatch` says what differs; nothing is written to the store then).
    public static func open(at url: URL, model: ManagedObjectModel,
                            options: StoreOptions = StoreOptions()) throws -> PersistentStore {
        try open(at: url, model: model, options: options, knownMetadata: nil)
    }

    /// The same, with metadata read before (`StoreMetadataReading`), used while the store is as
    /// it was then.
    package static func open(at url: URL, model: ManagedObjectModel, options: StoreOptions,
                             knownMetadata: StoreMetadataReading?) throws -> PersistentStore {
        let metadata = try knownMetadata.flatMap { $0.holds(forStoreAt: url) ? $0.metadata : nil } ?? StoreMetadata.read(storeAt: url)
        let mismatched = metadata.mismatchedEntities(for: model)
        guard mismatched.isEmpty else {
            // Another version's store, not a damaged one: the reason is the mismatch alone.
            let incompatible = StoreMismatch.incompatibleModel(entities: mismatched)
            throw StoreError(path: url.path, .mismatch(incompatible))
        }
        let schema = try StoreSchema(model: model)
        do {
            var database = options.isReadOnly
                ? try StoreFiles(url: url).readOnlyQueue(configuration: configuration(options))
                : try DatabaseQueue(path: url.path, configuration: configuration(options))
            if let mismatch = try database.read(StoreSchemaCheck(schema: schema).firstMismatch) {
                // The mismatch is the error to report; closing a connection that wrote nothing cannot lose data.
                try? database.close()
                throw StoreError(path: url.path, mismatch: mismatch)
            }
            var refusal: WriteRefusal? = options.isReadOnly ? .openedReadOnly : nil
            if !options.isReadOnly {
                try database.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA journal_mode = \(options.journalMode.rawValue)")
                    refusal = try HistoryTracking.prepare(options, in: db)
                }
            }
            if refusal != nil, !options.isReadOnly {
                // Read-only at SQLite's level: nothing reaches the file, whoever writes through the connection.
                try database.close()
                var readOnly = options
                readOnly.isReadOnly = true
                database = try StoreFiles(url: url).readOnlyQueue(configuration: configuration(readOnly))
            }
            return PersistentStore(url: url, schema: schema, metadata: metadata, options: options, database: database,
                                   writeRefusal: refusal)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: url.path, .cannotOpen(FailureCause(error)))
        }
    }

    /// Closes the connection (checkpointing the WAL into the main file).
    public func close() throws {
        try database.close()
    }

    static func configuration(_ options: StoreOptions) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = options.isReadOnly
        configuration.foreignKeysEnabled = false
        configuration.label = "ManagedStore"
        // Another process saving holds the write lock for milliseconds: wait for it rather than
        // fail with "database is locked".
        configuration.busyMode = .timeout(options.busyTimeout)
        // `saveInOneTransaction` keeps one transaction open across several accesses (its batches
        // and the reads between them); GRDB would otherwise stop the program at the end of the
        // first. Every other access opens and ends its own.
        configuration.allowsUnsafeTransactions = true
        let logger = options.sqlLogger
        let recorder = options.sqlRecorder
        configuration.prepareDatabase { db in
            recorder?.attach(to: db)
            if let logger {
                db.trace(options: .statement) { event in logger.info("sql: \(event)") }
            }
            StoreSQLFunctions.register(in: db)
        }
        return configuration
    }

    /// Creates the empty main file, 0600, failing if any file is there (even one made a moment
    /// ago by another process).
    private static func createPrivateFile(at url: URL) throws {
        let descriptor = Foundation.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw StoreError(path: url.path, code == EEXIST ? .alreadyExists : .cannotCreate(.system(errno: code)))
        }
        Foundation.close(descriptor)
    }

    private static func createTables(schema: StoreSchema, metadata: StoreMetadata, in db: Database) throws {
        for statement in SchemaSQL.createStatements(for: schema) {
            try db.execute(sql: statement)
        }
        for entity in schema.entities {
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                           arguments: [entity.number, entity.name, entity.superNumber])
        }
        try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                       arguments: [metadata.storeUUID, try metadata.plistData()])
    }
}
