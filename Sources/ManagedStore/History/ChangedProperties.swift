import Foundation

/// `ACHANGE.ZCOLUMNS`: which properties an update changed, as a bit vector (public write-ups say
/// Core Data stores "a bit vector"; its exact bit order is not documented, see
/// docs/store-format.md). The engine numbers an entity's stored properties (attributes and
/// relationships, inherited ones included, transient ones not) in order of their names; bit `i`
/// is bit `i % 8` (least significant first) of byte `i / 8`.
struct ChangedProperties {
    /// The entity's stored property names, in bit order.
    let names: [String]

    init(entity: String, model: ManagedObjectModel) {
        let attributes = model.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name)
        let relationships = model.allRelationships(of: entity).filter { !$0.isTransient }.map(\.name)
        names = (attributes + relationships).sorted()
    }

    func encode(_ changed: Set<String>) -> Data {
        var bytes = [UInt8](repeating: 0, count: (names.count + 7) / 8)
        for (index, name) in names.enumerated() where changed.contains(name) {
            bytes[index / 8] |= 1 << UInt8(index % 8)
        }
        return Data(bytes)
    }

    /// The names whose bits are set; bits past the entity's properties are ignored.
    func decode(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        return names.indices.filter { index in
            index / 8 < bytes.count && bytes[index / 8] & (1 << UInt8(index % 8)) != 0
        }.map { names[$0] }
    }
}
