import Foundation

/// The mirror: a git repository of note files (docs/sync.md) on branch `main`, with
/// `refs/uncloudnotes/store` marking the commit whose files the store holds. Everything git
/// does for sync goes through here.
final class MirrorRepository {
    static let branch = "main"
    static let remote = "origin"
    static let storeRef = "refs/uncloudnotes/store"
    static let marker = ".uncloudnotes-mirror"
    static let markerText = "An uncloudnotes mirror, format 1: one file per note under notes/, images under images/ (docs/sync.md).\n"

    let folder: URL
    let git: Git
    var gitDirectory: URL { folder.appendingPathComponent(".git") }

    private init(folder: URL, machine: String) {
        self.folder = folder
        self.git = Git(directory: folder, machine: machine)
    }

    /// Opens the mirror in `folder`, making a new one (0700) where there is nothing; refuses a
    /// folder holding anything else.
    static func open(_ folder: URL, machine: String) throws(SyncError) -> MirrorRepository {
        let files = FileManager.default
        let mirror = MirrorRepository(folder: folder, machine: machine)
        if !files.fileExists(atPath: folder.path) {
            do {
                try files.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .file(path: folder.path, error)
            }
        }
        if !files.fileExists(atPath: mirror.gitDirectory.path) {
            guard ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty else {
                throw .folderNotAMirror(path: folder.path, reason: "it holds files but is no git repository")
            }
            try mirror.git.run(["init", "-q", "-b", branch])
            return mirror
        }
        if let head = try mirror.commit(named: "HEAD"), try !mirror.has(marker, in: head) {
            throw .folderNotAMirror(path: folder.path, reason: "its commits have no \(marker) file")
        }
        return mirror
    }

    // MARK: Commits and refs

    /// The commit a name resolves to, nil when it names none (an unborn branch, no such ref).
    func commit(named name: String) throws(SyncError) -> String? {
        let result = try git.output(["rev-parse", "--verify", "-q", name + "^{commit}"])
        guard result.status == 0 else { return nil }
        return String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func has(_ path: String, in commit: String) throws(SyncError) -> Bool {
        try git.output(["cat-file", "-e", "\(commit):\(path)"]).status == 0
    }

    /// The file's bytes in a commit, nil when the commit has no such file.
    func file(_ path: String, in commit: String) throws(SyncError) -> Data? {
        let result = try git.output(["cat-file", "blob", "\(commit):\(path)"])
        return result.status == 0 ? result.standardOutput : nil
    }

    var storeTip: String? {
        get throws(SyncError) { try commit(named: Self.storeRef) }
    }

    func setStoreTip(_ commit: String) throws(SyncError) {
        try git.run(["update-ref", Self.storeRef, commit])
    }

    /// A new commit on `parent` (a root commit without one) that removes `removed` and writes
    /// the files `write` adds, made with `git fast-import` without touching the working tree or
    /// the index. The files stream to git as they are made: a first export of a large store
    /// holds one note's files at a time.
    func commit(on parent: String?, removing removed: [String], message: String,
                writing write: (MirrorFiles) throws(SyncError) -> Void) throws(SyncError) -> String {
        let ref = "refs/uncloudnotes/export"
        try git.run(["fast-import", "--quiet", "--force"]) { (input: GitInput) throws(SyncError) in
            let files = MirrorFiles(input)
            input.write("reset \(ref)\ncommit \(ref)\n")
            input.write("committer \(git.machine) <\(git.machine)@uncloudnotes> \(Int(Date().timeIntervalSince1970)) +0000\n")
            files.data(Data(message.utf8))
            if let parent { input.write("from \(parent)\n") }
            for path in removed.sorted() { input.write("D \(path)\n") }
            try write(files)
            input.write("\n")
        }
        guard let made = try commit(named: ref) else {
            throw .git(GitFailure(arguments: ["fast-import"], status: 0, standardError: "made no commit"))
        }
        return made
    }

    /// Whether two commits hold the same files.
    func sameFiles(_ first: String, _ second: String) throws(SyncError) -> Bool {
        try git.output(["diff", "--quiet", first, second]).status == 0
    }

    /// The note files that differ between two commits: each path and whether it is gone in `to`.
    func changedNotes(from: String, to: String) throws(SyncError) -> [(path: String, deleted: Bool)] {
        let output = try git.run(["diff", "--name-status", "--no-renames", "-z", from, to, "--", "notes/"])
        let fields = output.split(separator: "\0", omittingEmptySubsequences: true).map(String.init)
        return stride(from: 0, to: fields.count - 1, by: 2).compactMap { index in
            MirrorNote.identifier(inPath: fields[index + 1]) == nil ? nil : (fields[index + 1], fields[index] == "D")
        }
    }

    // MARK: Working tree

    /// Puts the working tree back as `HEAD` says after an interrupted sync (`busy`: a merge or
    /// reset was under way), whose half-written files are sync's own; otherwise changed files
    /// are hand edits and stay. A lock file git left when killed goes too: sync holds its own
    /// lock, so no git of its own is running.
    func recover(busy: Bool) throws(SyncError) {
        try? FileManager.default.removeItem(at: gitDirectory.appendingPathComponent("index.lock"))
        let merging = FileManager.default.fileExists(atPath: gitDirectory.appendingPathComponent("MERGE_HEAD").path)
        guard busy || merging else { return }
        if merging { _ = try git.output(["merge", "--abort"]) }
        if try commit(named: "HEAD") != nil { try git.run(["reset", "-q", "--hard", "HEAD"]) }
    }

    /// Commits files changed in the working tree by hand (or by another program). - Returns:
    /// whether there were any.
    func commitHandEdits() throws(SyncError) -> Bool {
        guard try commit(named: "HEAD") != nil, !(try git.run(["status", "--porcelain", "-z"]).isEmpty) else { return false }
        try git.run(["add", "-A"])
        try git.run(["commit", "-q", "--no-verify", "-m", "Edits made in the mirror on \(git.machine)"])
        return true
    }

    /// The bytes of a file in the working tree.
    func workingFile(_ path: String) throws(SyncError) -> Data {
        let url = folder.appendingPathComponent(path)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .file(path: url.path, error)
        }
    }

    func writeWorkingFile(_ path: String, _ data: Data?) throws(SyncError) {
        let url = folder.appendingPathComponent(path)
        do {
            if let data {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                try PrivateFile.writeAtomically(data, to: url)
            } else if FileManager.default.fileExists(atPath: url.path) {
                try FileManager.default.removeItem(at: url)
            }
        } catch {
            throw .file(path: url.path, error)
        }
    }

    // MARK: The remote

    var remoteURL: String? {
        get throws(SyncError) {
            let result = try git.output(["remote", "get-url", Self.remote])
            return result.status == 0 ? String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(in: .newlines) : nil
        }
    }

    func setRemote(_ url: String) throws(SyncError) {
        if try remoteURL == nil {
            try git.run(["remote", "add", Self.remote, url])
        } else {
            try git.run(["remote", "set-url", Self.remote, url])
        }
    }

    /// Fetches the remote and checks it is a mirror: empty, or a `main` holding the marker file.
    /// - Returns: the remote's `main`, nil when it has none yet.
    func fetch(remote: String) throws(SyncError) -> String? {
        let fetched = try git.output(["fetch", "--quiet", "--prune", Self.remote])
        guard fetched.status == 0 else {
            throw .remoteUnreachable(remote: remote, GitFailure(arguments: ["fetch"], status: fetched.status, standardError: fetched.standardError))
        }
        let tracking = "refs/remotes/\(Self.remote)/\(Self.branch)"
        guard let theirs = try commit(named: tracking) else {
            let others = try git.run(["for-each-ref", "--format=%(refname)", "refs/remotes/\(Self.remote)/"])
            if !others.isEmpty { throw .remoteNotAMirror(remote: remote, reason: "it has branches but no \(Self.branch)") }
            return nil
        }
        guard try has(Self.marker, in: theirs) else {
            throw .remoteNotAMirror(remote: remote, reason: "its \(Self.branch) has no \(Self.marker) file")
        }
        return theirs
    }

    enum PushOutcome { case pushed, remoteMoved }

    /// Pushes `main`. A refusal is told apart by looking again: when the remote's `main` is now
    /// something ours does not contain, it moved meanwhile (git words that several ways: "fetch
    /// first", "non-fast-forward", a ref that changed during the push).
    func push(remote: String) throws(SyncError) -> PushOutcome {
        let result = try git.output(["push", "--porcelain", Self.remote, "\(Self.branch):\(Self.branch)"])
        if result.status == 0 { return .pushed }
        let said = String(decoding: result.standardOutput, as: UTF8.self) + result.standardError
        let failure = GitFailure(arguments: ["push"], status: result.status, standardError: said)
        let fetched = try git.output(["fetch", "--quiet", Self.remote])
        guard fetched.status == 0 else { throw .remoteUnreachable(remote: remote, failure) }
        let tracking = "refs/remotes/\(Self.remote)/\(Self.branch)"
        if try commit(named: tracking) != nil, try git.output(["merge-base", "--is-ancestor", tracking, "HEAD"]).status == 1 {
            return .remoteMoved
        }
        throw .pushRejected(remote: remote, failure)
    }
}

/// The files of a commit being made, as `git fast-import` reads them.
struct MirrorFiles {
    private let input: GitInput

    fileprivate init(_ input: GitInput) {
        self.input = input
    }

    /// Adds (or replaces) the file at `path`.
    func add(_ path: String, _ bytes: Data) {
        input.write("M 100644 inline \(path)\n")
        data(bytes)
    }

    fileprivate func data(_ bytes: Data) {
        input.write("data \(bytes.count)\n")
        input.write(bytes)
        input.write("\n")
    }
}
