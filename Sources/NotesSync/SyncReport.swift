/// What a sync moved each way (`sync --json`), or with `--dry-run` what it would move.
public struct SyncReport: Codable, Equatable, Sendable {
    /// Note files added, changed and removed.
    public struct Counts: Codable, Equatable, Sendable {
        public var added = 0
        public var changed = 0
        public var deleted = 0

        public var total: Int { added + changed + deleted }

        public init() {}

        /// The note files of a diff, by how they changed.
        init(_ changes: [GitAnswer.Change]) {
            for change in changes {
                switch change.kind {
                case .added: added += 1
                case .deleted: deleted += 1
                case .modified, .typeChanged: changed += 1
                }
            }
        }
    }

    public var dryRun = false
    /// The note files the push gave the remote (with `--dry-run`: the store's changes that the
    /// mirror does not have yet).
    public var sent = Counts()
    /// The mirror's changes (the remote's, hand edits) written to the store.
    public var received = Counts()
    /// Note files the push gave the remote only encrypted again for new recipients (their
    /// text unchanged): not counted in `sent`.
    public var reencrypted = 0
    public var conflicts: [SyncConflict] = []
    /// The mirror commit the store now holds (the one pushed); nil in a dry run.
    public var commit: String?
    /// Whether the remote was updated.
    public var pushed = false
    /// What the user should know and act on (a remote whose clones check out nothing).
    public var notices: [String] = []

    /// The report as lines for people.
    public var lines: [String] {
        let verb = dryRun ? "would send" : "sent"
        var lines = ["\(verb) \(Self.describe(sent)); \(dryRun ? "would receive" : "received") \(Self.describe(received))"]
        lines += conflicts.map { "conflict: both machines changed \"\($0.note)\"; the other version is now \"\($0.copyTitle)\"" }
        if let commit { lines.append("mirror at \(commit.prefix(12))\(pushed ? ", pushed" : "")") }
        return lines + notices.map { "note: " + $0 }
    }

    private static func describe(_ counts: Counts) -> String {
        guard counts.total > 0 else { return "nothing" }
        return [(counts.added, "added"), (counts.changed, "changed"), (counts.deleted, "deleted")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }
}
