import Foundation
internal import GRDB

/// The external-storage side of one save, as Core Data does it: a value larger than
/// `ExternalBinaryBlob.externalThreshold` goes to a new file, written and synced before the row's
/// transaction commits; smaller ones stay inline, tagged. The files of values replaced or deleted
/// are removed only after the commit, and the files a failed save wrote are removed at once (a
/// crash in between leaves an orphan file, which nothing reads).
final class ExternalDataSave {
    private let store: PersistentStore
    private var written: [String] = []
    private var superseded: [String] = []

    init(store: PersistentStore) {
        self.store = store
    }

    /// The columns of an entity's table that have the tagged layout.
    static func taggedColumns(of storage: EntityStorage, attributes: [String: AttributeDescription]) -> [String] {
        storage.attributeColumns.filter { attributes[$0.key]?.storesExternally == true }.map(\.value.name).sorted()
    }

    /// The tagged columns of a row as they are stored now, before an update or delete changes them.
    func storedRow(of table: String, primaryKey: Int64, columns: [String], in db: Database) throws -> Row? {
        guard !columns.isEmpty else { return nil }
        let selected = columns.map { column -> SQL in "\(coreDataName: column)" }.joined(separator: ", ")
        return try Row.fetchOne(db, SQLRequest(literal: "SELECT \(selected) FROM \(coreDataName: table) WHERE Z_PK = \(primaryKey)"))
    }

    /// The column value to write for an attribute of an object. An unchanged value that stores
    /// externally keeps its stored form (and file); a changed one is written anew and its old
    /// file removed after the commit.
    func columnValue(of object: ManagedObject, attribute: AttributeDescription, column: String,
                     storedRow: Row?) throws -> DatabaseValue {
        let value = object.values[attribute.name]
        guard attribute.storesExternally else { return StoreValueCoding.databaseValue(value) }
        if let storedRow {
            if value == object.committedValues[attribute.name] { return storedRow[column] }
            superseded += store.externalFileNames(in: storedRow, columns: [column])
        }
        let bytes: Data
        switch StoreValueCoding.databaseValue(value).storage {
        case .blob(let data): bytes = data
        case .string(let text): bytes = Data(text.utf8)
        default: return .null
        }
        guard ExternalBinaryBlob.belongsInFile(bytes) else { return ExternalBinaryBlob.inline(bytes).databaseValue }
        let name = try store.externalData.write(bytes)
        written.append(name)
        return ExternalBinaryBlob.external(fileName: name).databaseValue
    }

    /// Notes the files of a row about to be deleted, for removal after the commit.
    func rowWillBeDeleted(_ storedRow: Row?, columns: [String]) {
        guard let storedRow else { return }
        superseded += store.externalFileNames(in: storedRow, columns: columns)
    }

    /// After the commit: the replaced and deleted values' files go.
    func didCommit() {
        store.externalData.remove(superseded)
    }

    /// After a rollback: the files this save wrote go; the old ones are still in use.
    func didRollBack() {
        store.externalData.remove(written)
    }
}
