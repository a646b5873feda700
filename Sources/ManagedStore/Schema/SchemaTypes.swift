internal import GRDB

/// The SQL column types Core Data declares.
public enum ColumnType: String, Sendable {
    /// Integers and booleans.
    case integer = "INTEGER"
    /// Doubles and floats.
    case float = "FLOAT"
    /// Decimals (kept as numbers).
    case decimal = "DECIMAL"
    /// Dates, as seconds since 2001-01-01.
    case timestamp = "TIMESTAMP"
    /// Strings and URIs.
    case varchar = "VARCHAR"
    /// Binary, Transformable and UUID values.
    case blob = "BLOB"

    /// The storage classes (`typeof`) a value of the column may have: a timestamp is a whole or
    /// fractional number of seconds.
    var storageClasses: [String] {
        switch self {
        case .integer: ["integer"]
        case .float, .decimal, .timestamp: ["real", "integer"]
        case .varchar: ["text"]
        case .blob: ["blob"]
        }
    }

    /// Whether `value` is a value of the column: not NULL, of one of its storage classes.
    func holds(_ value: DatabaseValue) -> Bool {
        let storageClass = switch value.storage {
        case .null: ""
        case .int64: "integer"
        case .double: "real"
        case .string: "text"
        case .blob: "blob"
        }
        return storageClasses.contains(storageClass)
    }

    init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .boolean, .objectID: self = .integer
        case .double, .float: self = .float
        case .decimal: self = .decimal
        case .date: self = .timestamp
        case .string, .uri: self = .varchar
        case .binary, .transformable, .uuid: self = .blob
        }
    }
}

/// A column of a store table.
public struct Column: Equatable, Sendable {
    /// The column's name (`ZTITLE`, `ZNOTE`, `Z3ATTACHMENTS`).
    public var name: String
    /// The SQL type Core Data declares for it.
    public var type: ColumnType
}

/// Where an entity's rows and properties are stored.
public struct EntityStorage: Sendable {
    /// The entity's name.
    public let name: String
    /// `Z_ENT`.
    public let number: Int
    /// The parent's `Z_ENT`, 0 for a root entity.
    public let superNumber: Int
    /// The root entity of the hierarchy, whose row in `Z_PRIMARYKEY` holds `Z_MAX`.
    public let rootName: String
    /// The table of the entity's hierarchy (`Z` + the root's name, upper-cased).
    public let tableName: String
    /// This entity's number and those of all its descendants: the `Z_ENT` values a fetch of this
    /// entity (sub-entities included) matches.
    public let kindNumbers: [Int]
    /// Attribute name -> column, inherited attributes included, transient ones excluded.
    public let attributeColumns: [String: Column]
    /// To-one relationship name -> its foreign key columns.
    public let toOneColumns: [String: ToOneColumns]
    /// To-many relationship name -> how its members are found.
    public let toManyStorage: [String: ToManyStorage]
}

/// A to-one relationship's columns: the target's `Z_PK`, and its `Z_ENT` when the target entity
/// has sub-entities (so the target's entity is known without reading its row).
public struct ToOneColumns: Equatable, Sendable {
    /// The target's `Z_PK` column.
    public var key: Column
    /// The target's `Z_ENT` column, present when the target entity has sub-entities.
    public var entity: Column?
    /// `Z_FOK_<NAME>`: the row's position in the inverse ordered to-many relationship.
    public var orderKey: Column?
}

/// Where a to-many relationship's members are recorded.
public enum ToManyStorage: Equatable, Sendable {
    /// Members are the rows of `table` whose `column` holds the owner's `Z_PK` (the inverse
    /// to-one's foreign key). `orderColumn` holds positions when the relationship is ordered.
    case inverseForeignKey(table: String, column: String, destination: String, orderColumn: String?)
    /// Members are listed in a join table: `ownerColumn` holds the owner's `Z_PK`,
    /// `memberColumn` the member's; `orderColumn` positions for an ordered relationship.
    case joinTable(table: String, ownerColumn: String, memberColumn: String, destination: String,
                   orderColumn: String?)
}

/// A table holding one inheritance hierarchy.
public struct TableStorage: Sendable {
    /// The table's name.
    public let name: String
    /// The root entity of the hierarchy the table holds.
    public let rootEntity: String
    /// Columns after `Z_PK`, `Z_ENT`, `Z_OPT`, in declaration order.
    public let columns: [Column]
    /// The indexes on the table, from the model's indexed attributes and fetch indexes.
    public let indexes: [IndexStorage]
}

/// An index Core Data creates on a table.
public struct IndexStorage: Equatable, Sendable {
    /// The index's name, as Core Data names it.
    public var name: String
    /// Whether the index enforces uniqueness (a uniqueness constraint).
    public var isUnique: Bool
    /// Each element as it appears in the index's column list, e.g. `ZNAME COLLATE BINARY ASC`.
    public var elements: [String]
}

/// A many-to-many relationship's table `Z_<ent><RELNAME>`.
public struct JoinTable: Equatable, Sendable {
    /// The table's name.
    public let name: String
    /// The two key columns, lower entity number first; they form the primary key.
    public let firstColumn: String
    /// The other key column, indexed on its own by `reverseIndexName`.
    public let secondColumn: String
    /// The columns holding members' positions, for ordered relationships.
    public let orderColumns: [String]

    /// The reverse index's name, `<table>_<second column>_INDEX`, as Core Data names it.
    public var reverseIndexName: String { "\(name)_\(secondColumn)_INDEX" }
}
