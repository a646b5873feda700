import Foundation
import ManagedStore

/// The v4 -> v5 policy, in the chapter's pattern: every note and image attachment gets a new,
/// random identifier (a UUID, unique across notes and attachments), which v5 keeps for ever and
/// persistent history preserves after a deletion. The mapping model's expressions give the rest
/// (`dateModified = $source.dateCreated`; `pinned` takes its default, NO).
///
/// The identifier is an SQL function of nothing, called for every row (`isDeterministic` false),
/// so the mapping runs as one `INSERT … SELECT` like the others; the per-object path calls it too.
public final class IdentifierMigrationPolicyV4toV5: EntityMigrationPolicy, SetBasedMigrationPolicy {
    /// The class name the mapping model names, `Module.ClassName` as Xcode writes it.
    public static let className = "UnCloudNotes.IdentifierMigrationPolicyV4toV5"

    /// A new random identifier (UUID version 4) each call.
    public static let newIdentifier = MigrationFunction(name: "new_identifier", isDeterministic: false, alwaysGives: .uuid) { _ in
        .uuid(identifiers.next())
    }

    /// One buffer of random bytes for every identifier a migration makes (`UUID()` reads
    /// `/dev/urandom` anew for each).
    private static let identifiers = RandomIdentifiers()

    /// It has no hooks: what the mapping copies (title, body, dates) stays as it was, so the search
    /// index of the notes is carried to v5.
    public var leavesCopiedValues: Bool { true }

    /// Note's and ImageAttachment's `identifier`: `new_identifier()`, a new UUID per row.
    public func computedValues(for mapping: EntityMapping) throws -> [String: ComputedValue] {
        ["identifier": ComputedValue(Self.newIdentifier, [])]
    }
}
