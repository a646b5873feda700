import Foundation

/// Identifies one object: its entity and its primary key (`Z_PK`) once saved, a temporary
/// identifier before its first save.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    /// A saved object's primary key, or a temporary identifier before its first save.
    public enum Key: Hashable, Sendable {
        /// A saved object's `Z_PK`.
        case permanent(Int64)
        /// An object not saved yet.
        case temporary(UUID)
    }

    /// The object's own entity.
    public let entityName: String
    /// The primary key or temporary identifier.
    public let key: Key

    /// The ID of the saved object of `entityName` with this `Z_PK`.
    public init(entityName: String, primaryKey: Int64) {
        self.entityName = entityName
        self.key = .permanent(primaryKey)
    }

    init(temporaryFor entityName: String) {
        self.entityName = entityName
        self.key = .temporary(UUID())
    }

    /// Whether the object has not been saved yet.
    public var isTemporary: Bool {
        if case .temporary = key { return true }
        return false
    }

    /// `Z_PK`, nil until the object has been saved.
    public var primaryKey: Int64? {
        if case .permanent(let value) = key { return value }
        return nil
    }

    /// `Entity/p12` when saved, `Entity/t<uuid prefix>` before.
    public var description: String {
        switch key {
        case .permanent(let value): "\(entityName)/p\(value)"
        case .temporary(let uuid): "\(entityName)/t\(uuid.uuidString.prefix(8))"
        }
    }
}
