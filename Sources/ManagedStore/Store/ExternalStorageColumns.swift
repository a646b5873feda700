import Foundation
package import GRDB

extension AttributeDescription {
    /// Whether the attribute's column has the tagged layout of `ExternalBinaryBlob`: Core Data
    /// honours "Allows External Storage" on Binary and Transformable attributes only.
    public var storesExternally: Bool {
        allowsExternalBinaryDataStorage && (type == .binary || type == .transformable)
    }
}

extension PersistentStore {
    /// Where this store's externally stored values are: beside its real file.
    public var externalData: ExternalDataFolder {
        ExternalDataFolder(storeAt: StorePath.real(url))
    }

    /// A column as stored, turned into the attribute's plain form: for an attribute that stores
    /// externally, the tag is read and the value taken from the column or its file; other
    /// attributes' columns are returned as they are.
    /// - Throws: a `StoreError` whose mismatch names the table, column and row, for a tag, file
    ///   name or file that is wrong.
    package func plainColumnValue(_ stored: DatabaseValue, of attribute: AttributeDescription,
                                 table: String, column: String, primaryKey: Int64) throws -> DatabaseValue {
        guard attribute.storesExternally else { return stored }
        do {
            switch stored.storage {
            case .null:
                return stored
            case .blob(let bytes):
                switch try ExternalBinaryBlob.content(of: bytes) {
                case .inline(let value): return value.databaseValue
                case .external(let name): return try externalData.data(named: name).databaseValue
                }
            case .int64, .double, .string:
                throw ExternalDataProblem.notABlob
            }
        } catch let problem as ExternalDataProblem {
            throw StoreError(path: url.path, mismatch: .externalData(table: table, column: column,
                                                                     primaryKey: primaryKey, problem: problem))
        }
    }

    /// The names of the files that tagged columns of a row refer to.
    func externalFileNames(in row: Row, columns: [String]) -> [String] {
        columns.compactMap { column in
            let value: DatabaseValue = row[column]
            // A value that names no file (inline, or malformed: reads report those) has no file to remove.
            guard case .blob(let bytes) = value.storage,
                  case .external(let name)? = try? ExternalBinaryBlob.content(of: bytes) else { return nil }
            return name
        }
    }
}
