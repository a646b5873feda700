/// One risk `ModelCheck` found, with the reason in words.
public struct CheckFinding: Sendable, Equatable, Encodable {
    /// How bad a finding is. Errors are what makes a launch fail or a store unmigratable;
    /// warnings are what may lose data or fail with some stores only.
    public enum Severity: String, Sendable, Encodable, Comparable {
        /// Data may be lost, or some stores may fail: worth a look, not a failed build.
        case warning
        /// A launch would fail or a store cannot be migrated.
        case error

        /// Warnings before errors.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// What kind of risk it is: stable names for scripts (`--json`).
    public enum Kind: String, Sendable, Encodable, CaseIterable {
        /// An entity removed: its objects are deleted by the migration.
        case entityRemoved
        /// An entity a mapping model does not read: its objects are dropped (or the store refused).
        case entityUnmapped
        /// An attribute removed: its values are dropped by the migration.
        case attributeRemoved
        /// An attribute made (or added as) required without a default value.
        case requiredWithoutDefault
        /// An attribute's type changed to one that cannot hold every old value.
        case narrowedType
        /// An attribute's type changed otherwise (Core Data cannot infer any type change).
        case typeChanged
        /// A uniqueness constraint added: existing duplicates make the migration fail.
        case uniquenessConstraintAdded
        /// A renaming identifier that names nothing in the previous version.
        case danglingRenamingIdentifier
        /// A mapping model made against other versions of the models than the files have now.
        case mappingModelOutOfDate
        /// A mapping model that no step of the chain uses.
        case mappingModelUnused
        /// A mapping model that cannot be read against the model.
        case mappingModelUnreadable
        /// A custom migration policy class that this program does not have.
        case unknownPolicy
        /// A policy acknowledged with `--app-policy` that no mapping model names (a typo, or a
        /// mapping model not given).
        case appPolicyUnused
        /// Two consecutive versions with neither a mapping model nor an inferable mapping.
        case chainGap
        /// A version Core Data can store but this program cannot (a to-many relationship without
        /// an inverse): no trial runs through its steps, which is not a gap in the chain (a warning).
        case notStorableHere
        /// A migration of a generated or given store failed or lost something.
        case migrationFailed
        /// Versions after the one `.xccurrentversion` names: no route from them is checked.
        case versionsAfterCurrent
    }

    /// How bad it is.
    public var severity: Severity
    /// What kind of risk.
    public var kind: Kind
    /// The step it is in ("v2 -> v3"), or the file it is about; nil for the whole model.
    public var location: String?
    /// The reason, in words.
    public var message: String

    /// A finding; `location` names the step or file.
    public init(_ severity: Severity, _ kind: Kind, at location: String?, _ message: String) {
        self.severity = severity
        self.kind = kind
        self.location = location
        self.message = message
    }

    /// "error [chainGap] v2 -> v3: …"
    public var line: String {
        "\(severity.rawValue) [\(kind.rawValue)]\(location.map { " \($0)" } ?? ""): \(message)"
    }
}
