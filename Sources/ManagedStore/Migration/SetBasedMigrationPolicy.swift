internal import GRDB

/// A custom policy whose destination values SQL can compute: each is a function of values of
/// the source object, registered on the migration's connection, so the entity mapping runs as
/// one `INSERT … SELECT` like a mapping without a policy, never object by object.
///
/// The same functions serve the per-object path, which the manager still takes when some other
/// expression of the mapping needs objects: a policy defines each value once.
public protocol SetBasedMigrationPolicy: EntityMigrationPolicy {
    /// The destination attributes the policy computes, by name; attributes not listed take the
    /// mapping's expressions (or their default value).
    func computedValues(for mapping: EntityMapping) throws -> [String: ComputedValue]

    /// True when the policy writes nothing but its computed values (no hook changes objects), so
    /// the attributes the mapping copies from the source stay exactly as they were: they need no
    /// validation, and a text index of them stays true (`KeptObjects`). False unless a policy says so.
    var leavesCopiedValues: Bool { get }
}

extension SetBasedMigrationPolicy {
    public var leavesCopiedValues: Bool { false }
}

/// A destination attribute's value: `function(arguments…)`, each argument an expression over the
/// source object (`$source.image`, `$source.note.body`).
public struct ComputedValue: Sendable {
    /// The function that computes the value.
    public var function: MigrationFunction
    /// Its arguments, each an expression over the source object.
    public var arguments: [ValueExpression]

    /// The value `function(arguments…)`.
    public init(_ function: MigrationFunction, _ arguments: [ValueExpression]) {
        self.function = function
        self.arguments = arguments
    }
}

/// A function of values, named as SQL calls it. It must not fail: a value it cannot compute is a
/// value too (nil, 0, ""), as the policy decides.
public struct MigrationFunction: Sendable {
    /// The SQL name the function is registered under for the migration's connection.
    public let name: String
    /// Whether the same arguments always give the same value. A function that makes a new value
    /// each call (a new identifier) is not: SQLite must call it for every row, never reuse a result.
    public let isDeterministic: Bool
    /// The type every value it gives has, never nil; nil when it promises nothing. A promise
    /// spares the migration's validation a scan of the values (a new identifier for every row),
    /// and the engine holds the function to it: a value that breaks it fails the migration.
    public let alwaysGives: AttributeType?
    /// Computes the value from the arguments' values, in order.
    public let body: @Sendable ([AttributeValue?]) -> AttributeValue?

    /// A function named `name`; deterministic unless it makes a new value each call; giving a
    /// value of type `alwaysGives` for any arguments when it says so.
    public init(name: String, isDeterministic: Bool = true, alwaysGives: AttributeType? = nil,
                body: @escaping @Sendable ([AttributeValue?]) -> AttributeValue?) {
        self.name = name
        self.isDeterministic = isDeterministic
        self.alwaysGives = alwaysGives
        self.body = body
    }

    /// The function as SQLite calls it: arguments as SQLite holds them (blob, text, number).
    func databaseFunction(argumentCount: Int) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: argumentCount, pure: isDeterministic) { [name, body, alwaysGives] values in
            let value = StoreValueCoding.databaseValue(body(values.map(Self.attributeValue)))
            if let alwaysGives, !ColumnType(alwaysGives).holds(value) {
                throw DatabaseError(message: "\(name) gave \(value), not the \(alwaysGives.rawValue) value it promises")
            }
            return value
        }
    }

    static func attributeValue(_ value: DatabaseValue) -> AttributeValue? {
        switch value.storage {
        case .null: nil
        case .int64(let number): .integer(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .blob(let bytes): .data(bytes)
        }
    }
}

extension SetBasedMigrationPolicy {
    /// Sets the computed values of one destination object (the per-object path).
    func setComputedValues(of destination: ManagedObject, from source: ManagedObject, in mapping: EntityMapping,
                           manager: MigrationManager) throws {
        for (name, value) in try computedValues(for: mapping) {
            let arguments = try value.arguments.map { argument -> AttributeValue? in
                switch try manager.evaluate(argument, source: source, mapping: mapping, policy: self) {
                case .null: return nil
                // As SQLite would pass it (a date as its timestamp): one value whichever the path.
                case .scalar(let scalar): return MigrationFunction.attributeValue(StoreValueCoding.databaseValue(scalar))
                case .object, .collection:
                    throw MigrationError.mapping(.argumentGaveObjects(mapping: mapping.name, attribute: name, function: value.function.name))
                }
            }
            try manager.setAttribute(ExpressionValue(value.function.body(arguments)), forKey: name, of: destination)
        }
    }
}
