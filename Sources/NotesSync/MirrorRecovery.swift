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
    /// (see `SyncState.workingTreeBusy`), so files that differ from `HEAD` are to reset.
    /// - Returns: the folder where files that differed from `HEAD` were set aside, if any.
    @discardableResult
    func recover(busy: Bool) throws(SyncError) -> URL? {
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
        guard busy || underWay || movedBranch else { return nil }
        return try resetWorkingTree()
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
    /// Files that differed from `HEAD` may be the user's own work, so they are copied aside
    /// first, never only deleted. - Returns: the folder they were copied to, if any.
    @discardableResult
    func resetWorkingTree() throws(SyncError) -> URL? {
        let setAside = try setAsideChangedFiles()
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
        // Files an interrupted merge added are untracked now; copies of them are set aside.
        try git.run(["clean", "-q", "-f", "-d"])
        return setAside
    }

    /// Copies every file that differs from `HEAD` (changed, added, untracked) into a new folder
    /// under `.git/uncloudnotes-set-aside/`, keeping its path. - Returns: that folder, or nil
    /// when nothing differed.
    private func setAsideChangedFiles() throws(SyncError) -> URL? {
        let status = try WorkingTreeStatus(try git.runForData(["status", "--porcelain", "-z", "--untracked-files=all"]))
        let files = Set(status.paths).sorted().filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        guard !files.isEmpty else { return nil }
        let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
        let destination = gitDirectory.appendingPathComponent("uncloudnotes-set-aside/\(stamp)-\(getpid())")
        for path in files {
            let copy = destination.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: folder.appendingPathComponent(path), to: copy)
            } catch {
                throw .file(path: copy.path, error)
            }
        }
        return destination
    }

    /// Commits files changed in the working tree by hand (or by another program), once each
    /// note file among them reads: one that does not stops the sync with a line naming it,
    /// before anything is committed. Conflicted files (a merge git left without its state)
    /// are set aside and reset instead. - Returns: the folder they were set aside in, if any.
    /// In an encrypted mirror (`cipher`), plain files put there are encrypted before the commit.
    /// The mirror's key files are never taken from a hand edit: recipients change only through
    /// `sync recipients` (a deleted `.age-recipients` would turn encryption off, an added key
    /// would be listed but never encrypted for). Edited ones are put back as `HEAD` has them and
    /// named in `restoredKeyFiles`; `cipher` is read after that.
    func commitHandEdits(cipher: () throws(SyncError) -> MirrorCipher, restoredKeyFiles: inout [String]) throws(SyncError) -> URL? {
        guard try commit(named: "HEAD") != nil else { return nil }
        var entries = try WorkingTreeStatus(try git.runForData(["status", "--porcelain", "-z", "--untracked-files=all"]))
        guard !entries.paths.isEmpty else { return nil }
        if entries.hasUnmerged { return try resetWorkingTree() }
        restoredKeyFiles = entries.paths.filter { [MirrorCipher.recipientsFile, MirrorCipher.nameKeyFile].contains($0) }
        for path in restoredKeyFiles {
            if try files([("HEAD", path)])[0] != nil {
                try git.run(["checkout", "-q", "HEAD", "--", path])
            } else {
                try writeWorkingFile(path, nil)
            }
        }
        entries.remove(restoredKeyFiles)
        guard !entries.paths.isEmpty else { return nil }
        let cipher = try cipher()
        for path in entries.paths where path.hasPrefix("notes/") && FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path) {
            guard MirrorNote.identifier(inPath: path) != nil else {
                throw .unreadableNoteFile(path: path, reason: .misnamed)
            }
            _ = try MirrorNoteFile.parse(String(decoding: try cipher.open(try workingFile(path), path: path), as: UTF8.self), path: path)
        }
        try seal(entries.paths, with: cipher, all: false)
        try git.run(["add", "-A"])
        try git.run(["commit", "-q", "--no-verify", "-m", "Edits made in the mirror on \(git.machine)"])
        return nil
    }
}

/// `git status --porcelain -z`: the paths that differ from `HEAD`, and whether any is unmerged.
struct WorkingTreeStatus {
    private static let unmerged: Set<String> = ["DD", "AU", "UD", "UA", "DU", "AA", "UU"]
    private(set) var paths: [String] = []
    private(set) var hasUnmerged = false

    /// Leaves these paths out (put back by hand meanwhile).
    mutating func remove(_ removed: [String]) {
        paths.removeAll { removed.contains($0) }
    }

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
