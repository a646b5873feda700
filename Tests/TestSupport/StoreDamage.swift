import Foundation
import GRDB
import Testing

/// Ways a store whose metadata still names its model can be damaged (by hand, by another tool),
/// each one SQL run on a real app store: tests assert the engine and the app refuse them with
/// an error, never a trap. Rows 1 and 2 are notes; row 1 of `ZATTACHMENT` an image attachment.
public enum StoreDamage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case nullEntityNumber
    case otherEntityNumber
    case droppedColumn
    case droppedTable
    case retypedColumn
    case textInOptimisticLock
    case largestDisplayIndex
    case largestPrimaryKey
    case largestOptimisticLock

    public var sql: String {
        switch self {
        case .nullEntityNumber: "UPDATE ZNOTE SET Z_ENT = NULL WHERE Z_PK = 1"
        // Entity 2 is ImageAttachment, whose rows live in ZATTACHMENT.
        case .otherEntityNumber: "UPDATE ZNOTE SET Z_ENT = 2 WHERE Z_PK = 1"
        case .droppedColumn: "ALTER TABLE ZATTACHMENT DROP COLUMN ZCAPTION"
        case .droppedTable: "DROP TABLE ZATTACHMENT"
        case .retypedColumn: "ALTER TABLE ZNOTE RENAME COLUMN ZTITLE TO ZOLDTITLE; "
            + "ALTER TABLE ZNOTE ADD COLUMN ZTITLE BLOB; UPDATE ZNOTE SET ZTITLE = ZOLDTITLE"
        case .textInOptimisticLock: "UPDATE ZNOTE SET Z_OPT = 'x' WHERE Z_PK = 1"
        case .largestDisplayIndex: "UPDATE ZNOTE SET ZDISPLAYINDEX = 9223372036854775807 WHERE Z_PK = 1"
        case .largestPrimaryKey: "UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775807 WHERE Z_NAME = 'Note'"
        case .largestOptimisticLock: "UPDATE ZNOTE SET Z_OPT = 9223372036854775807 WHERE Z_PK = 1"
        }
    }

    /// Damages the store file in place; closing folds SQLite's `-wal` and `-shm` away.
    public func apply(to store: URL) throws {
        try Self.apply(sql: sql, to: store)
    }

    /// Runs damaging SQL on the store file in place (a damage particular to one test).
    public static func apply(sql: String, to store: URL) throws {
        let database = try DatabaseQueue(path: store.path)
        try database.writeWithoutTransaction { try $0.execute(sql: sql) }
        try database.close()
    }

    public var testDescription: String { rawValue }
}
