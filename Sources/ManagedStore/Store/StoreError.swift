import Foundation
internal import GRDB

/// Why a store file could not be used: the file, and a case that keeps its cause, so callers
/// and tests react to what happened rather than to wording. The file is never changed on error.
/// Messages are made from the cases here, in one place.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store file, as given by the caller.
    public var path: String
    /// What went wrong, as a case callers can match.
    public var problem: StoreProblem

    /// An error for the store at `path`.
    public init(path: String, _ problem: StoreProblem) {
        self.path = path
        self.problem = problem
    }

    /// A store whose metadata names the model but whose tables or rows do not follow it.
    public init(path: String, mismatch: StoreMismatch) {
        self.init(path: path, .mismatch(mismatch))
    }

    /// Set when the tables or rows differ from what the model lays out, so callers can tell a
    /// damaged or hand-edited store from one that is merely unreadable.
    public var mismatch: StoreMismatch? {
        if case .mismatch(let mismatch) = problem { mismatch } else { nil }
    }

    /// The message without the path.
    public var reason: String { problem.description }

    /// One line: the path, then the reason.
    public var description: String { "\(path): \(reason)" }
}

/// What went wrong with a store file.
public enum StoreProblem: Equatable, Sendable, CustomStringConvertible {
    /// Nothing is at the path.
    case noSuchFile
    /// The path is a folder: a store is the `.sqlite` file in it.
    case isFolder
    /// The path is a device, a pipe or a socket.
    case notARegularFile
    /// The file is not an SQLite database.
    case notSQLite
    /// An SQLite database without Core Data's `Z_METADATA` table.
    case notCoreData
    /// `Z_METADATA` has no row.
    case metadataRowMissing
    /// `Z_UUID` is not text or `Z_PLIST` not a blob.
    case metadataRowUnreadable
    /// `Z_PLIST` does not decode as a property list.
    case metadataNotAPropertyList
    /// The metadata names no entity hashes, so no model version can be matched.
    case metadataWithoutVersionHashes
    /// A new store's file name is taken (even by a file made a moment ago by another process).
    case alreadyExists
    /// The new store's file could not be made.
    case cannotCreate(FailureCause)
    /// SQLite could not open the file.
    case cannotOpen(FailureCause)
    /// A read of the store failed (a damaged page, an I/O error).
    case cannotRead(FailureCause)
    /// A file of an externally stored value, or its folder: what was being done to it, and why it failed.
    case externalDataFile(action: FileAction, file: String, FailureCause)
    /// The search index's side file could not be made.
    case cannotCreateSearchIndex(FailureCause)
    /// The tables or rows differ from the model's layout (a damaged or hand-edited store).
    case mismatch(StoreMismatch)
    /// A column's value that its attribute's type cannot hold (`found` says what it holds).
    case unreadableValue(found: String, type: String)
    /// As `unreadableValue`, located: the entity, attribute and row.
    case unreadableAttribute(entity: String, attribute: String, primaryKey: Int64, found: String, type: String)
    /// An in-place migration ran but left the table's columns other than the model's.
    case inPlaceColumns(table: String, found: [String], expected: [String])
    /// An in-place migration ran but made no join table for a many-to-many relationship.
    case inPlaceJoinTableMissing(String)

    /// The reason as a phrase, written here once for every caller.
    public var description: String {
        switch self {
        case .noSuchFile: "no such store file"
        case .isFolder: "this is a folder, not a store file: give the path of the .sqlite file"
        case .notARegularFile: "this is not a regular file: give the path of the .sqlite file"
        case .notSQLite: "not an SQLite database"
        case .notCoreData: "an SQLite database, but not a Core Data store (no Z_METADATA table)"
        case .metadataRowMissing: "the Core Data metadata row is missing"
        case .metadataRowUnreadable: "the Core Data metadata row is not readable (Z_UUID must be text, Z_PLIST a property list)"
        case .metadataNotAPropertyList: "the Core Data metadata is not a readable property list"
        case .metadataWithoutVersionHashes: "the Core Data metadata has no model version hashes"
        case .alreadyExists: "a file already exists there"
        case .cannotCreate(let cause): "cannot create the store (\(cause))"
        case .cannotOpen(let cause): "cannot open the store (\(cause))"
        case .cannotRead(let cause): "cannot read the store (\(cause))"
        case .externalDataFile(let action, let file, let cause): "cannot \(action.rawValue) \(file): \(cause)"
        case .cannotCreateSearchIndex(let cause): "cannot create the search index: \(cause)"
        // Another version's store, not a damaged one: the mismatch alone says it.
        case .mismatch(let mismatch) where mismatch.isIncompatibleModel: "\(mismatch)"
        case .mismatch(let mismatch): "the store does not match its model: \(mismatch)"
        case .unreadableValue(let found, let type): "found \(found) in a \(type) column"
        case .unreadableAttribute(let entity, let attribute, let primaryKey, let found, let type):
            "\(entity).\(attribute) of row \(primaryKey): found \(found) in a \(type) column"
        case .inPlaceColumns(let table, let found, let expected):
            "in-place migration left table \(table) with columns \(found.joined(separator: ", ")) instead of \(expected.joined(separator: ", "))"
        case .inPlaceJoinTableMissing(let table): "in-place migration did not create join table \(table)"
        }
    }
}

/// What was being done to a file when it failed.
public enum FileAction: String, Sendable {
    /// Making, writing, syncing, listing or renaming the file.
    case create, write, sync, list, rename
    /// Opening the file or folder to sync it.
    case openToSync = "open to sync"
}

/// The underlying cause of a failed file or database operation, kept as data: the system's
/// error number, SQLite's result code and message, or (for errors of neither kind) their text.
public enum FailureCause: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed with this `errno`.
    case system(errno: Int32)
    /// SQLite failed: its primary result code (`SQLITE_CONSTRAINT`, 19), the extended one that
    /// says which kind (`SQLITE_CONSTRAINT_UNIQUE`, 2067), its message when it gave one, and the
    /// statement that failed when there was one (as prepared, parameters as `?`).
    case sqlite(code: Int32, extendedCode: Int32, message: String?, statement: String?)
    /// Any other error, by its text.
    case other(String)

    /// The cause of the last failed system call (`errno`).
    public static var lastSystemError: FailureCause { .system(errno: errno) }

    /// The cause an error carries: SQLite's code and message, a Foundation file error's errno,
    /// else the error's own text.
    init(_ error: any Error) {
        if let error = error as? DatabaseError {
            self = .sqlite(code: error.resultCode.rawValue, extendedCode: error.extendedResultCode.rawValue, message: error.message,
                           statement: error.sql)
        } else if let error = error as? CocoaError, let posix = error.underlying as? POSIXError {
            self = .system(errno: posix.code.rawValue)
        } else if let error = error as? FailureCause {
            self = error
        } else {
            self = .other("\(error)")
        }
    }

    /// The cause as a phrase: the system's or SQLite's message, or the text kept.
    public var description: String {
        switch self {
        case .system(let code): String(cString: strerror(code))
        // SQLITE_BUSY after the busy timeout: another program's long write (an import, say).
        case .sqlite(5, _, let message, _):
            "another program kept the store locked for writing past the wait; try again when it is done (SQLite error 5: \(message ?? "database is locked"))"
        case .sqlite(let code, _, let message, _): message.map { "SQLite error \(code): \($0)" } ?? "SQLite error \(code)"
        case .other(let text): text
        }
    }
}

/// How a store's tables or rows differ from its model's layout. Such a store was damaged or
/// edited by hand: the engine refuses it rather than guess, and changes nothing.
public enum StoreMismatch: Error, Equatable, Sendable, CustomStringConvertible {
    /// A table the model lays out is not in the file.
    case missingTable(String)
    /// A table lacks a column the model lays out.
    case missingColumn(table: String, column: String)
    /// The column exists, but its declared type gives SQLite another affinity than the model's.
    case columnType(table: String, column: String, declared: String, expected: String)
    /// A row whose `Z_ENT` is NULL or names no entity stored in its table.
    case rowEntity(table: String, primaryKey: Int64, entityNumber: Int64?)
    /// A value the engine cannot read as its column's type (text in `Z_OPT`, 1e300 in a key…).
    case unreadableValue(table: String, column: String, primaryKey: Int64?, found: String)
    /// A value of an attribute that allows external storage whose tag, file name or file is wrong.
    case externalData(table: String, column: String, primaryKey: Int64, problem: ExternalDataProblem)
    /// A counter (`Z_MAX`, `Z_OPT`) at the largest value it can hold: nothing can be added.
    case exhaustedCounter(table: String, column: String)
    /// The store was written by another version of the model: these entities' hashes differ.
    case incompatibleModel(entities: [String])

    var isIncompatibleModel: Bool {
        if case .incompatibleModel = self { true } else { false }
    }

    /// The problem as a phrase, for the message of the `StoreError` that carries it.
    public var description: String {
        switch self {
        case .missingTable(let table):
            "it has no table \(table); restore it from a backup"
        case .missingColumn(let table, let column):
            "table \(table) has no column \(column); restore it from a backup"
        case .columnType(let table, let column, let declared, let expected):
            "column \(table).\(column) is declared \(declared.isEmpty ? "without a type" : declared), not \(expected)"
        case .rowEntity(let table, let primaryKey, let number):
            "row \(primaryKey) of \(table) has Z_ENT \(number.map(String.init) ?? "NULL"), "
                + "which is no entity stored in that table"
        case .unreadableValue(let table, let column, let primaryKey, let found):
            "\(table).\(column)\(primaryKey.map { " of row \($0)" } ?? "") holds \(found)"
        case .externalData(let table, let column, let primaryKey, let problem):
            "\(table).\(column) of row \(primaryKey) holds \(problem)"
        case .exhaustedCounter(let table, let column):
            "\(table).\(column) is at the largest number it can hold, so nothing more can be saved"
        case .incompatibleModel(let entities):
            "the model used to open the store is incompatible with the one used to create the store "
                + "(entities whose version hashes differ: \(entities.joined(separator: ", ")))"
        }
    }
}
