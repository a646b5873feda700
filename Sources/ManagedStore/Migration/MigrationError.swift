import Foundation

/// Why a migration failed or was refused, as the cases callers react to, each with its cause.
/// The source store is never changed, and no partial destination file is left behind.
/// `description` is the one-line text the command line prints.
public enum MigrationError: Error, Sendable, CustomStringConvertible {
    /// The store was written by `version`, newer than the `target` this program runs as.
    case storeNewer(store: String, version: String, target: String)
    /// The store's model version hashes match no version of `model`.
    case unknownVersion(store: String, model: String)
    /// A version name asked for (`--model-version`) is not one of `model`'s `versions`.
    case unknownVersionName(String, model: String, versions: [String])
    /// No plan reaches `to` from `from`; `store` is set once a stack refuses a store for it.
    case noMigrationPath(store: String?, from: String, to: String, reason: NoMigrationPathReason)
    /// The plan needs custom policy classes this program does not have (checked before any work).
    case missingPolicies(store: String, names: [String])
    /// An entity mapping names a policy class missing from the registry.
    case unknownPolicy(mapping: String, className: String, known: [String])
    /// The migrated store breaks its model's rules.
    case validation(ValidationFailure)
    /// The caller cancelled (`MigrationCancellation`); the store is as it was.
    case cancelled
    /// A file or folder that the migration reads or writes is in the way, read-only or failed.
    case file(path: String, problem: FileProblem)
    /// A system call on the migration's files failed: `operation` names it and its file.
    case fileSystem(operation: String, errno: Int32)
    /// The mapping model or a policy cannot make the destination: a bad expression result,
    /// a missing entity mapping, an entity a model does not have.
    case mapping(MappingProblem)
    /// Something else stopped a migration from `from` to `to`, a policy's own refusal included.
    case failed(from: String, to: String, cause: any Error)

    /// Why no migration plan reaches the destination version.
    public enum NoMigrationPathReason: Equatable, Sendable {
        /// One of the two is not a version of the model named.
        case notVersions(of: String)
        /// The source is newer than the destination.
        case backwards
        /// No mapping model was found, and none could be inferred.
        case cannotInfer(InferenceError)
    }

    /// The one line the command line prints, naming the store and the versions.
    public var description: String {
        switch self {
        case .storeNewer(let store, let version, let target):
            "\(store): the store was written by \(version), newer than \(target) which this program runs as; it was not changed"
        case .unknownVersion(let store, let model):
            "\(store): the store's model version hashes match no known version of \(model) "
                + "(written by a newer version of the app?); it was not changed"
        case .unknownVersionName(let name, let model, let versions):
            "unknown model version \"\(name)\" of \(model): use v1 to v\(versions.count) or one of "
                + versions.joined(separator: ", ")
        case .noMigrationPath(let store, let from, let to, let reason):
            store.map { "\($0): \(Self.text(from: from, to: to, reason)); the store was not changed" }
                ?? Self.text(from: from, to: to, reason)
        case .missingPolicies(let store, let names):
            "\(store): the migration needs the custom migration polic\(names.count == 1 ? "y" : "ies") "
                + "\(names.joined(separator: ", ")), which this program does not have; "
                + "the migration was refused and the store was not changed"
        case .unknownPolicy(let mapping, let className, let known):
            "entity mapping \(mapping) names the migration policy \(className), which this program does not know "
                + "(known policies: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
        case .validation(let failure):
            "the migrated store does not validate: \(failure)"
        case .cancelled:
            "the migration was cancelled"
        case .file(let path, let problem):
            "\(path): \(problem)"
        case .fileSystem(let operation, let errno):
            "\(operation): \(String(cString: strerror(errno)))"
        case .mapping(let problem):
            problem.description
        case .failed(let from, let to, let cause):
            "the migration from \(from) to \(to) failed: \(cause)"
        }
    }

    private static func text(from: String, to: String, _ reason: NoMigrationPathReason) -> String {
        switch reason {
        case .notVersions(let model): "\(from) and \(to) must both be versions of \(model)"
        case .backwards: "the store is at \(from), newer than \(to): stores are never migrated backwards"
        case .cannotInfer(let error):
            "cannot migrate from \(from) to \(to): \(error) (no mapping model was found for this pair of versions)"
        }
    }

    /// The same refusal, naming the store it was about.
    func refusing(store: String) -> MigrationError {
        guard case .noMigrationPath(nil, let from, let to, let reason) = self else { return self }
        return .noMigrationPath(store: store, from: from, to: to, reason: reason)
    }
}
