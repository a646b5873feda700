import Foundation
import ManagedStore

/// The lines the chapter's app printed while it migrated ("Source model entity hashes: …",
/// "Migrating store … from … to …", the mapping, "Migration Completed Successfully"), made from the
/// engine's events. The engine reports what happens; saying it as the book did is the app's job,
/// so the command line, the migration screen and the walkthrough all print the same lines.
public enum MigrationConsole {
    /// The lines for one event of a migration of the store at `store`; none for events the
    /// chapter's app did not print.
    public static func lines(for event: MigrationEvent, store: URL) -> [String] {
        switch event {
        case .stepStarted(_, let step):
            ["Source model entity hashes: " + hashes(of: step.source),
             "Destination model entity hashes: " + hashes(of: step.destination),
             "Migrating store \(store.path) from \(step.source.name) to \(step.destination.name)",
             mapping(of: step)]
        case .composedPass(let first, let last, let mapping):
            ["One pass from \(first.source.name) to \(last.destination.name): \(describe(mapping))"]
        case .stepFinished:
            ["Migration Completed Successfully"]
        case .warning(let text):
            // Not the chapter's, but every place that prints its lines must show it.
            ["Warning: \(text)"]
        default:
            []
        }
    }

    private static func mapping(of step: MigrationStep) -> String {
        switch step.kind {
        case .inPlace(let inferred):
            "Inferred mapping (in place): " + inferred.changes.joined(separator: "; ")
        case .inferredCopy(let inferred, let reason):
            "Inferred mapping (copied\(reason.map { ": \($0)" } ?? "")): " + inferred.changes.joined(separator: "; ")
        case .mappingModel(let mapping):
            "Mapping model: " + describe(mapping)
        }
    }

    private static func describe(_ mapping: MappingModel) -> String {
        "\(mapping.name) (\(mapping.entityMappings.map(\.name).joined(separator: ", ")))"
    }

    private static func hashes(of version: ManagedObjectModel) -> String {
        version.entityVersionHashes.sorted { $0.key < $1.key }
            .map { "\($0.key) \($0.value.hexString.prefix(16))…" }.joined(separator: ", ")
    }
}
