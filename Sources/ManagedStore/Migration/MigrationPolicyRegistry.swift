/// The policy classes a program knows, by the class name mapping models write
/// (`Module.ClassName`). A mapping model naming an unknown class is refused before any work.
public struct MigrationPolicyRegistry: Sendable {
    private var types: [String: EntityMigrationPolicy.Type] = [:]

    public init() {}

    public mutating func register(_ type: EntityMigrationPolicy.Type, as className: String) {
        types[className] = type
    }

    public var classNames: [String] { types.keys.sorted() }

    func makePolicy(named className: String?, for mapping: String) throws -> EntityMigrationPolicy {
        guard let className else { return EntityMigrationPolicy() }
        guard let type = types[className] else {
            throw MigrationError.unknownPolicy(mapping: mapping, className: className, known: classNames)
        }
        return type.init()
    }
}
