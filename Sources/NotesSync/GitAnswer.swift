import Foundation

/// The shapes of git's answers that sync relies on, checked before they are believed: an exit
/// status of 0 with an empty or cut answer (a broken wrapper, a failed write) must stop a sync,
/// never read as "absent" or "nothing changed".
enum GitAnswer {
    /// One object id (40 hex digits, or 64 in a SHA-256 repository) on one line.
    static func objectID(_ output: Data, command: String) throws(SyncError) -> String {
        let text = String(decoding: output, as: UTF8.self)
        guard text.hasSuffix("\n") else { throw .untrustedGitAnswer(command: command, expected: "an object id on a line") }
        let id = String(text.dropLast())
        guard isObjectID(id) else { throw .untrustedGitAnswer(command: command, expected: "an object id on a line") }
        return id
    }

    /// Several object ids, one a line, exactly `count` of them.
    static func objectIDs(_ output: Data, count: Int, command: String) throws(SyncError) -> [String] {
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count == count + 1, lines.last == "", lines.dropLast().allSatisfy(isObjectID) else {
            throw .untrustedGitAnswer(command: command, expected: "\(count) object ids")
        }
        return Array(lines.dropLast())
    }

    static func isObjectID(_ text: String) -> Bool {
        (text.utf8.count == 40 || text.utf8.count == 64) && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A change of `git diff --name-status -z --no-renames`: its status letter and path.
    struct Change: Equatable {
        enum Kind: Character { case added = "A", modified = "M", deleted = "D", typeChanged = "T" }
        let kind: Kind
        let path: String
    }

    /// `git diff --name-status -z --no-renames`: pairs of a status letter and a path.
    static func changes(_ output: Data, command: String) throws(SyncError) -> [Change] {
        guard !output.isEmpty else { return [] }
        guard output.last == 0 else { throw .untrustedGitAnswer(command: command, expected: "a listing ending in NUL") }
        let fields = output.dropLast().split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count.isMultiple(of: 2) else { throw .untrustedGitAnswer(command: command, expected: "status and path pairs") }
        var changes: [Change] = []
        for index in stride(from: 0, to: fields.count, by: 2) {
            guard fields[index].count == 1, let kind = fields[index].first.flatMap(Change.Kind.init(rawValue:)), !fields[index + 1].isEmpty else {
                throw .untrustedGitAnswer(command: command, expected: "status letters A, M, D or T, each with a path")
            }
            changes.append(Change(kind: kind, path: fields[index + 1]))
        }
        return changes
    }
}
