import Foundation

/// A conflict copy sync made: the note whose texts overlapped and the copy's title.
public struct SyncConflict: Codable, Equatable, Sendable {
    public let note: String
    public let copyTitle: String
    public let machine: String
}

extension MirrorRepository {
    static let emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

    /// Merges `other` into `main` (which checks out the result): git merges the files; every
    /// note changed on both sides is then merged by `NoteMerge`, whatever git made of it, so
    /// sets merge as sets and overlapping texts give conflict copies instead of markers.
    /// `state` marks the working tree busy meanwhile (see `SyncState.workingTreeBusy`), and
    /// stays so when the merge fails: the next sync resets what it left. In an encrypted
    /// mirror the notes are merged as plain text in memory and written sealed with `cipher`, as
    /// is every plain file either side changed; `resealing`: every file either side changed is
    /// sealed again (for new recipients).
    func merge(_ other: String, message: String, cipher: MirrorCipher = .plain, resealing: Bool = false,
               state: inout SyncState) throws(SyncError) -> [SyncConflict] {
        guard try commit(named: "HEAD") != other else { return [] } // merged already
        state.workingTreeBusy = true
        try state.write(in: gitDirectory)
        let conflicts = try mergeInWorkingTree(other, message: message, cipher: cipher, resealing: resealing)
        state.workingTreeBusy = false
        try state.write(in: gitDirectory)
        return conflicts
    }

    /// The commit two histories share last; the empty tree for unrelated histories (git exits 1
    /// and prints nothing). Any other answer is an error, never read as "unrelated".
    func mergeBase(_ first: String, _ second: String) throws(SyncError) -> String {
        let base = try git.output(["merge-base", first, second])
        switch base.status {
        case 0: return try GitAnswer.objectID(base.standardOutput, command: "merge-base")
        case 1 where base.standardOutput.isEmpty: return Self.emptyTree
        default: throw .git(GitFailure(arguments: ["merge-base"], status: base.status, standardError: base.standardError))
        }
    }

    private func mergeInWorkingTree(_ other: String, message: String, cipher: MirrorCipher, resealing: Bool) throws(SyncError) -> [SyncConflict] {
        guard let head = try commit(named: "HEAD") else {
            try git.run(["reset", "-q", "--hard", other])
            return []
        }
        let arguments = ["merge", "-q", "--no-commit", "--no-verify", "--allow-unrelated-histories", "-m", message, other]
        let result = try git.output(arguments)
        let merging = FileManager.default.fileExists(atPath: gitDirectory.appendingPathComponent("MERGE_HEAD").path)
        guard (result.status == 0 || result.status == 1) && (merging || result.status == 0) else {
            throw .git(GitFailure(arguments: arguments, status: result.status, standardError: result.standardError))
        }
        guard merging else { return [] } // up to date, or fast-forwarded
        let origin = try mergeBase(head, other)
        let both = Set(try changedNotes(from: origin, to: head).map(\.path)).intersection(try changedNotes(from: origin, to: other).map(\.path)).sorted()
        let versions = try files(both.flatMap { path in [origin, head, other].map { (commit: $0, path: path) } })
        var conflicts: [SyncConflict] = []
        let merger = NoteMerge(identifierKey: cipher.keys?.nameKey)
        for (index, path) in both.enumerated() {
            func version(_ offset: Int) throws(SyncError) -> MirrorNote? {
                guard let data = versions[index * 3 + offset] else { return nil }
                return try MirrorNoteFile.parse(String(decoding: try cipher.open(data, path: path), as: UTF8.self), path: path)
            }
            let machine = try git.run(["log", "-1", "--format=%an", other, "--", path]).trimmingCharacters(in: .whitespacesAndNewlines)
            let outcome = merger.merge(base: try version(0), ours: try version(1), theirs: try version(2), theirMachine: machine)
            try writeWorkingFile(path, try outcome.note.map { note throws(SyncError) in try cipher.seal(Data(MirrorNoteFile.render(note).utf8)) })
            if let copy = outcome.conflictCopy {
                try writeWorkingFile(copy.path, try cipher.seal(Data(MirrorNoteFile.render(copy).utf8)))
                conflicts.append(SyncConflict(note: outcome.note?.title ?? copy.title, copyTitle: copy.title, machine: machine))
            }
        }
        // Anything else git could not merge (a file added by hand, say) keeps our side.
        let unmerged = try git.run(["diff", "--name-only", "--diff-filter=U", "-z"]).split(separator: "\0").map(String.init)
        for path in unmerged where !both.contains(path) {
            if try git.output(["checkout", "--ours", "--", path]).status != 0 { try git.run(["rm", "-q", "--cached", "--", path]) }
        }
        if cipher.isEncrypted {
            // Either side may bring plain files: theirs from before the switch, ours exported
            // plain before this machine learnt of it (a round that failed before its push).
            let changed = Set(try changedFiles(from: origin, to: other) + changedFiles(from: origin, to: head)).subtracting(both)
            try seal(changed.sorted(), with: cipher, all: resealing)
        }
        try git.run(["add", "-A"])
        try git.run(["commit", "-q", "--no-verify", "-m", message])
        return conflicts
    }
}
