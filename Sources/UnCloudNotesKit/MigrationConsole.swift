import Foundation
import ManagedStore

/// The lines the chapter's app printed while it migrated ("Source model entity hashes: …",
/// "Migrating store … from … to …", the mapping, "Migration Completed Successfully"), made from the
/// engine's events. The engine reports what happens; saying it as the book did is the app's job,
/// so the command line, the migration screen and the walkthrough all print the same lines.
///
/// Consecutive steps the engine runs as one pass (a composed mapping) are said as what they are:
/// one pass through each version, completed once. That takes remembering the pass between
/// events, hence a class: one console per migration's lines.
public final class MigrationConsole {
    /// The pass under way: its first step, last step, mapping, the versions it goes through so far,
    /// and how many of its steps have finished.
    private var pass: (first: MigrationStep, last: MigrationStep, mapping: MappingModel, versions: [String], finished: Int)?

    /// A console for one migration's events, with no pass under way yet.
    public init() {}

    /// The lines for one event of a migration of the store at `store`; none for events the
    /// chapter's app did not print.
    public func lines(for event: MigrationEvent, store: URL) -> [String] {
        switch event {
        case .composedPass(let first, let last, let mapping):
            // The engine announces a pass before its steps: they are said together once all are known.
            pass = (first, last, mapping, [first.source.name], 0)
            return []
        case .stepStarted(_, let step):
            guard var current = pass else { return Self.started(step, store: store) }
            current.versions.append(step.destination.name)
            pass = current
            guard step.destination.name == current.last.destination.name else { return [] }
            return ["Source model entity hashes: " + Self.hashes(of: current.first.source),
                    "Destination model entity hashes: " + Self.hashes(of: current.last.destination),
                    "Migrating store \(store.path) from \(current.first.source.name) to \(current.last.destination.name) "
                        + "in one pass of \(current.versions.count - 1) steps: \(current.versions.joined(separator: " → "))",
                    "Composed mapping: " + Self.describe(current.mapping)]
        case .stepFinished:
            guard var current = pass else { return ["Migration Completed Successfully"] }
            current.finished += 1
            pass = current
            guard current.finished == current.versions.count - 1 else { return [] }
            pass = nil
            return ["Migration Completed Successfully"]
        case .warning(let text):
            // Not the chapter's, but every place that prints its lines must show it.
            return ["Warning: \(text)"]
        case .indexingText(let fraction) where fraction == 0:
            // Not the chapter's either: the wait after the steps is said, not silent (issue #38).
            return ["Building the search index beside the store, once, so searches answer at once"]
        case .textIndexed(let notes, let seconds):
            return ["Search index ready: \(notes.counting("note")) indexed in \(String(format: "%.1f", seconds)) s"]
        default:
            return []
        }
    }

    private static func started(_ step: MigrationStep, store: URL) -> [String] {
        ["Source model entity hashes: " + hashes(of: step.source),
         "Destination model entity hashes: " + hashes(of: step.destination),
         "Migrating store \(store.path) from \(step.source.name) to \(step.destination.name)",
         mapping(of: step)]
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
