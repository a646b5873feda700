/// The policy classes a program knows, by the class name mapping models write
/// (`Module.ClassName`). A mapping model naming an unknown class is refused before any work.
public struct MigrationPolicyRegistry: Sendable {
    private var types: [String: EntityMigrationPolicy.Type] = [:]

    /// An empty registry: every mapping model that names a policy class is refused until it is registered.
    public init() {}

    /// Makes `type` the policy of mappings that name `className` (`Module.ClassName`, as written).
    public mutating func register(_ type: EntityMigrationPolicy.Type, as className: String) {
        types[className] = type
    }

    /// The registered class names, sorted, for the message that names a missing one.
    public var classNames: [String] { types.keys.sorted() }

    func makePolicy(named className: String?, for mapping: String) throws -> EntityMigrationPolicy {
        guard let className else { return EntityMigrationPolicy() }
        guard let type = types[className] else {
            throw MigrationError.unknownPolicy(mapping: mapping, className: className, known: classNames)
        }
        return type.init()
    }
}
