import Foundation
import ManagedStore

/// One property of a `PropertyFetchRequest`, read from each row as its type: the place among the
/// row's values is handed out when the property is added (`RowProperties.add`), so no read
/// counts positions.
struct RowColumn<Value> {
    fileprivate let index: Int
    fileprivate let read: (AttributeValue?) -> Value

    func value(in row: PropertyRow) -> Value { read(row.values[index]) }
}

/// The keys of a to-many relationship's members (`PropertyFetchRequest.Property.memberKeys`).
struct MemberKeysColumn {
    fileprivate let index: Int

    func keys(in row: PropertyRow) -> [Int64] { row.memberKeys(at: index) }
}

/// The properties a request reads, each added with the column its values are read from.
struct RowProperties {
    private(set) var properties: [PropertyFetchRequest.Property] = []

    mutating func add<Value>(_ property: PropertyFetchRequest.Property, as read: @escaping (AttributeValue?) -> Value) -> RowColumn<Value> {
        properties.append(property)
        return RowColumn(index: properties.count - 1, read: read)
    }

    mutating func addMemberKeys(of relationship: String) -> MemberKeysColumn {
        properties.append(.memberKeys(relationship))
        return MemberKeysColumn(index: properties.count - 1)
    }

    /// A text attribute; nil reads as empty.
    mutating func text(_ attribute: String) -> RowColumn<String> { add(.attribute(attribute)) { $0?.stringValue ?? "" } }

    mutating func date(_ attribute: String) -> RowColumn<Date?> { add(.attribute(attribute)) { $0?.dateValue } }

    /// A boolean attribute; nil reads as false.
    mutating func flag(_ attribute: String) -> RowColumn<Bool> { add(.attribute(attribute)) { $0?.boolValue ?? false } }
}
