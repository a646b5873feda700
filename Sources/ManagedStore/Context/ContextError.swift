/// An error from a managed object context: a failed save, a missing object, a wrong key.
public struct ContextError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Why a save was refused: names the entity, the property and the reason, like Core Data's
/// validation errors. A save with several problems reports all of them.
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        public var entity: String
        public var property: String?
        public var reason: String

        public var description: String {
            "\(entity)\(property.map { ".\($0)" } ?? ""): \(reason)"
        }
    }

    public var problems: [Problem]

    public var description: String {
        "validation failed: " + problems.map(\.description).joined(separator: "; ")
    }
}
