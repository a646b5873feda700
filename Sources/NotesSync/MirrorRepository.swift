import Foundation
import Processes
import UnCloudNotesKit

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

    /// Opens the mirror in `folder`, making a new one (0700) where there is nothing, with
    /// `remote` as its remote; refuses a folder holding anything else.
    static func open(_ folder: URL, machine: String, remote: String?) throws(SyncError) -> MirrorRepository {
        let mirror = MirrorRepository(folder: folder, machine: machine)
        if MirrorCreation.isHalfMade(mirror.gitDirectory) {
            // A first sync stopped inside `git init` (by a version that made the mirror in
            // place): nothing was ever committed there, so it is made again.
            do {
                try FileManager.default.removeItem(at: mirror.gitDirectory)
            } catch {
                throw .file(path: mirror.gitDirectory.path, error)
            }
        }
        if !FileManager.default.fileExists(atPath: mirror.gitDirectory.path) {
            try MirrorCreation.make(folder, machine: machine, remote: remote)
            return mirror
        }
        // The marker never changes once committed: the working tree's copy says it is there.
        if try mirror.commit(named: "HEAD") != nil, !FileManager.default.fileExists(atPath: folder.appendingPathComponent(marker).path),
           try mirror.files([("HEAD", marker)])[0] == nil {
            throw .folderNotAMirror(path: folder.path, reason: .noMarker(branch: nil, marker: marker))
        }
        return mirror
    }

    // MARK: Commits and refs

    /// The commit a name resolves to, nil when it names none (an unborn branch, no such ref).
    /// `HEAD` and refs are read from their files; anything else asks git.
    func commit(named name: String) throws(SyncError) -> String? {
        if name == "HEAD" || name.hasPrefix("refs/") { return try GitRefs(gitDirectory: gitDirectory).resolve(name) }
        let arguments = ["rev-parse", "--verify", "-q", name + "^{commit}"]
        let result = try git.output(arguments)
        switch result.status {
        case 0: return try GitAnswer.objectID(result.standardOutput, command: "rev-parse \(name)")
        case 1 where result.standardOutput.isEmpty: return nil
        default: throw .git(GitFailure(arguments: arguments, status: result.status, standardError: result.standardError))
        }
    }

    /// The files at `path` in `commit`, for each request: nil where the commit has no such file.
    /// One `git cat-file --batch` answers them all; a failure to read is an error, never "absent".
    func files(_ requests: [(commit: String, path: String)]) throws(SyncError) -> [Data?] {
        guard !requests.isEmpty else { return [] }
        let output = try git.run(["cat-file", "--batch"]) { (input: ChildInput) throws(SyncError) in
            for (commit, path) in requests { input.write("\(commit):\(path)\n") }
        }
        return try CatFileBatch.parse(output, requests: requests.map { "\($0.commit):\($0.path)" })
    }

    /// The note files of a commit (one `git ls-tree`).
    func notePaths(in commit: String) throws(SyncError) -> Set<String> {
        let output = try git.runForData(["ls-tree", "-r", "-z", "--name-only", commit, "--", "notes/"])
        guard output.isEmpty || output.last == 0 else { throw .untrustedGitAnswer(command: "ls-tree", expected: "a listing ending in NUL") }
        return Set(output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
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
    /// holds one note's files at a time. The commit's id is fast-import's own answer (`get-mark`),
    /// so an import that made nothing can never pass for an earlier one.
    func commit(on parent: String?, removing removed: [String], message: String,
                writing write: (MirrorFiles) throws(SyncError) -> Void) throws(SyncError) -> String {
        let ref = "refs/uncloudnotes/export"
        let answer = try git.run(["fast-import", "--quiet", "--force"]) { (input: ChildInput) throws(SyncError) in
            let files = MirrorFiles(input)
            input.write("reset \(ref)\ncommit \(ref)\nmark :1\n")
            input.write("committer \(git.machine) <\(git.machine)@uncloudnotes> \(Int(Date().timeIntervalSince1970)) +0000\n")
            files.data(Data(message.utf8))
            if let parent { input.write("from \(parent)\n") }
            for path in removed.sorted() { input.write("D \(path)\n") }
            try write(files)
            input.write("\nget-mark :1\n")
        }
        return try GitAnswer.objectID(answer, command: "fast-import")
    }

    /// Whether two commits hold the same files.
    func sameFiles(_ first: String, _ second: String) throws(SyncError) -> Bool {
        let trees = try GitAnswer.objectIDs(try git.runForData(["rev-parse", first + "^{tree}", second + "^{tree}"]), count: 2,
                                            command: "rev-parse")
        return trees[0] == trees[1]
    }

    /// The note files that differ between two commits, each with how it changed. Any other path
    /// under `notes/` is an error naming it: a file the mirror would ignore is never ignored in
    /// silence. An empty listing is believed only when the two commits hold the same files.
    func changedNotes(from: String, to: String) throws(SyncError) -> [GitAnswer.Change] {
        guard from != to else { return [] }
        let output = try git.runForData(["diff", "--name-status", "--no-renames", "-z", from, to])
        let changes = try GitAnswer.changes(output, command: "diff")
        if changes.isEmpty, try !sameFiles(from, to) {
            throw .untrustedGitAnswer(command: "diff", expected: "the files that differ between two different trees")
        }
        let notes = changes.filter { $0.path.hasPrefix("notes/") }
        if let misnamed = notes.first(where: { MirrorNote.identifier(inPath: $0.path) == nil && $0.kind != .deleted }) {
            throw .unreadableNoteFile(path: misnamed.path, reason: .misnamed)
        }
        return notes.filter { MirrorNote.identifier(inPath: $0.path) != nil }
    }

    // MARK: Working tree

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
                try PrivateFiles.replace(url, with: data)
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
            let arguments = ["remote", "get-url", Self.remote]
            let result = try git.output(arguments)
            switch result.status {
            case 0:
                let url = String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(in: .newlines)
                guard !url.isEmpty else { throw .untrustedGitAnswer(command: "remote get-url", expected: "the remote's URL") }
                return url
            case 2: return nil // no such remote
            default: throw .git(GitFailure(arguments: arguments, status: result.status, standardError: result.standardError))
            }
        }
    }

    /// Sets the remote, unless it is already `url`; `checkChange` may refuse a change from
    /// another URL (given it) before anything is changed.
    func setRemote(_ url: String, checkChange: (String) throws(SyncError) -> Void = { _ in }) throws(SyncError) {
        let current = try remoteURL
        if current == url { return }
        if let current { try checkChange(current) }
        if current == nil {
            try git.run(["remote", "add", Self.remote, url])
        } else {
            try git.run(["remote", "set-url", Self.remote, url])
        }
    }

    /// Fetches the remote and checks it is a mirror: empty, or a `main` holding the marker file.
    /// - Returns: the remote's `main`, nil when it has none yet.
    func fetch(remote: String) throws(SyncError) -> String? {
        let tracking = Self.trackingRef
        var fetched = try git.output(["fetch", "--quiet", "--prune", Self.remote])
        if fetched.status != 0 {
            // A fetch that failed part-way can leave the remote's branch naming objects that
            // never arrived, and git then refuses every fetch: the ref is only a copy of the
            // remote's, so it goes, and the fetch is tried once more.
            try git.run(["update-ref", "-d", "--no-deref", tracking])
            fetched = try git.output(["fetch", "--quiet", "--prune", Self.remote])
        }
        guard fetched.status == 0 else {
            throw .remoteUnreachable(remote: remote, GitFailure(arguments: ["fetch"], status: fetched.status, standardError: fetched.standardError))
        }
        guard let theirs = try commit(named: tracking) else {
            let others = try git.run(["for-each-ref", "--format=%(refname)", "refs/remotes/\(Self.remote)/"])
            if !others.isEmpty { throw .remoteNotAMirror(remote: remote, reason: .otherBranches(expected: Self.branch)) }
            return nil
        }
        // A remote branch that is our own HEAD holds the marker: only another one is looked at.
        if try theirs != commit(named: "HEAD"), try files([(theirs, Self.marker)])[0] == nil {
            throw .remoteNotAMirror(remote: remote, reason: .noMarker(branch: Self.branch, marker: Self.marker))
        }
        return theirs
    }

    /// The remote's `main` as last fetched (or pushed).
    static let trackingRef = "refs/remotes/\(remote)/\(branch)"

    enum PushOutcome: Equatable {
        /// `created`: the push made the remote's `main` (its first).
        case pushed(created: Bool)
        /// The remote's `main` was ours already: nothing was sent.
        case alreadyThere
        case remoteMoved
    }

    /// Pushes `main`. A refusal is told apart by looking again: when the remote's `main` is now
    /// something ours does not contain, it moved meanwhile (git words that several ways: "fetch
    /// first", "non-fast-forward", a ref that changed during the push).
    func push(remote: String) throws(SyncError) -> PushOutcome {
        let tracking = Self.trackingRef
        // The remote's branch as just fetched (or last pushed) is ours already: nothing to push.
        if let head = try commit(named: "HEAD"), try commit(named: tracking) == head { return .alreadyThere }
        let refspec = "refs/heads/\(Self.branch):refs/heads/\(Self.branch)"
        let result = try git.output(["push", "--porcelain", Self.remote, refspec])
        if result.status == 0 {
            // "<flag>\t<refspec>\t<summary>" for the branch (flag ' ', '+', '*' or '='), then "Done".
            let lines = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n")
            guard lines.last == "Done", lines.contains(where: { line in
                line.count > 2 && " +*=".contains(line.first ?? "x") && line.dropFirst().hasPrefix("\t\(refspec)\t")
            }) else { throw .untrustedGitAnswer(command: "push", expected: "the branch pushed, and Done") }
            return .pushed(created: lines.contains { $0.hasPrefix("*\t\(refspec)\t") })
        }
        let said = String(decoding: result.standardOutput, as: UTF8.self) + result.standardError
        let failure = GitFailure(arguments: ["push"], status: result.status, standardError: said)
        let fetched = try git.output(["fetch", "--quiet", Self.remote])
        guard fetched.status == 0 else { throw .remoteUnreachable(remote: remote, failure) }
        if try commit(named: tracking) != nil, try git.output(["merge-base", "--is-ancestor", tracking, "HEAD"]).status == 1 {
            return .remoteMoved
        }
        throw .pushRejected(remote: remote, failure)
    }
}

/// The files of a commit being made, as `git fast-import` reads them.
struct MirrorFiles {
    private let input: ChildInput

    fileprivate init(_ input: ChildInput) {
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
