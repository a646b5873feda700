import Foundation

/// Identifies one object: its entity and its primary key (`Z_PK`) once saved, a temporary
/// identifier before its first save.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    public enum Key: Hashable, Sendable {
        case permanent(Int64)
        case temporary(UUID)
    }

    public let entityName: String
    public let key: Key

    public init(entityName: String, primaryKey: Int64) {
        self.entityName = entityName
        self.key = .permanent(primaryKey)
    }

    init(temporaryFor entityName: String) {
        self.entityName = entityName
        self.key = .temporary(UUID())
    }

    public var isTemporary: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// `Z_PK`, nil until the object has been saved.
    public var primaryKey: Int64? {
        if case .permanent(let value) = key { return value }
        return nil
    }

    public var description: String {
        switch key {
        case .permanent(let value): "\(entityName)/p\(value)"
        case .temporary(let uuid): "\(entityName)/t\(uuid.uuidString.prefix(8))"
        }
    }
}
