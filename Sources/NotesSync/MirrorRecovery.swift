import Foundation

/// Bringing the mirror to a known state before a sync does anything: whatever git or an earlier
/// sync left (a merge, rebase, cherry-pick or revert under way, a stale lock, half-written or
/// conflicted files, a detached or other branch) is undone, and the work is redone from the
/// store and the remote. Sync holds its own lock meanwhile, so no git of its own is running.
extension MirrorRepository {
    /// Files git writes while an operation is under way.
    private static let operationsUnderWay = ["MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply"]
    /// Locks git takes on what sync's commands change; one left behind means a git was killed.
    private static let lockFiles = ["index.lock", "HEAD.lock", "ORIG_HEAD.lock", "packed-refs.lock", "config.lock",
                                    "refs/heads/\(branch).lock", "\(storeRef).lock", "refs/uncloudnotes/export.lock",
                                    "refs/remotes/\(remote)/\(branch).lock"]

    /// Undoes what an interrupted sync or git left. `busy`: sync was changing the working tree
    /// (see `SyncState.workingTreeBusy`), so files that differ from `HEAD` are its own, to reset.
    func recover(busy: Bool) throws(SyncError) {
        for lock in Self.lockFiles {
            let url = gitDirectory.appendingPathComponent(lock)
            do {
                if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            } catch {
                throw .file(path: url.path, error)
            }
        }
        let underWay = Self.operationsUnderWay.contains { FileManager.default.fileExists(atPath: gitDirectory.appendingPathComponent($0).path) }
        let movedBranch = try checkOutMain()
        if busy || underWay || movedBranch { try resetWorkingTree() }
    }

    /// Puts `HEAD` back on `main` when it is detached or on another branch (a hand `git
    /// checkout`, an interrupted rebase). - Returns: whether it had to.
    private func checkOutMain() throws(SyncError) -> Bool {
        let headFile = gitDirectory.appendingPathComponent("HEAD")
        let head: String
        do {
            head = try String(contentsOf: headFile, encoding: .utf8)
        } catch {
            throw .file(path: headFile.path, error)
        }
        let mainRef = "refs/heads/\(Self.branch)"
        guard head != "ref: \(mainRef)\n" else { return false }
        if try commit(named: mainRef) == nil, let current = try commit(named: "HEAD") {
            try git.run(["update-ref", mainRef, current])
        }
        try git.run(["symbolic-ref", "HEAD", mainRef])
        return true
    }

    /// The working tree and index as `HEAD` has them, every operation under way abandoned.
    func resetWorkingTree() throws(SyncError) {
        // A rebase keeps its state in folders that reset does not remove.
        for folder in ["rebase-merge", "rebase-apply"] {
            let url = gitDirectory.appendingPathComponent(folder)
            do {
                if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            } catch {
                throw .file(path: url.path, error)
            }
        }
        if try commit(named: "HEAD") != nil {
            // reset also drops MERGE_HEAD, CHERRY_PICK_HEAD and REVERT_HEAD.
            try git.run(["reset", "-q", "--hard", "HEAD"])
        } else {
            try git.run(["read-tree", "--empty"])
        }
        // Files an interrupted merge added are untracked now; they were sync's, not the user's.
        try git.run(["clean", "-q", "-f", "-d"])
    }

    /// Commits files changed in the working tree by hand (or by another program), once each
    /// note file among them reads: one that does not stops the sync with a line naming it,
    /// before anything is committed. Conflicted files (a merge git left without its state)
    /// are reset instead. - Returns: whether there were any hand edits.
    func commitHandEdits() throws(SyncError) -> Bool {
        guard try commit(named: "HEAD") != nil else { return false }
        let entries = try WorkingTreeStatus(try git.runForData(["status", "--porcelain", "-z", "--untracked-files=all"]))
        guard !entries.paths.isEmpty else { return false }
        if entries.hasUnmerged {
            try resetWorkingTree()
            return false
        }
        for path in entries.paths where path.hasPrefix("notes/") && FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path) {
            guard MirrorNote.identifier(inPath: path) != nil else {
                throw .unreadableNoteFile(path: path, reason: MirrorNote.namingRule)
            }
            _ = try MirrorNoteFile.parse(String(decoding: try workingFile(path), as: UTF8.self), path: path)
        }
        try git.run(["add", "-A"])
        try git.run(["commit", "-q", "--no-verify", "-m", "Edits made in the mirror on \(git.machine)"])
        return true
    }
}

/// `git status --porcelain -z`: the paths that differ from `HEAD`, and whether any is unmerged.
struct WorkingTreeStatus {
    private static let unmerged: Set<String> = ["DD", "AU", "UD", "UA", "DU", "AA", "UU"]
    private(set) var paths: [String] = []
    private(set) var hasUnmerged = false

    init(_ output: Data) throws(SyncError) {
        guard output.isEmpty || output.last == 0 else { throw .untrustedGitAnswer(command: "status", expected: "a listing ending in NUL") }
        var fields = output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }[...]
        while let entry = fields.popFirst() {
            guard entry.count > 3, Array(entry)[2] == " " else { throw .untrustedGitAnswer(command: "status", expected: "XY PATH entries") }
            let code = String(entry.prefix(2))
            paths.append(String(entry.dropFirst(3)))
            if Self.unmerged.contains(code) { hasUnmerged = true }
            // A rename or copy is followed by the path it came from.
            if code.contains("R") || code.contains("C"), let from = fields.popFirst() { paths.append(from) }
        }
    }
}
