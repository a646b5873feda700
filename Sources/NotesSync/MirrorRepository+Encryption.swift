import AgeEncryption
import Crypto
import Foundation

extension MirrorRepository {
    /// The mirror's key files: its recipients and its sealed name key (`MirrorCipher`).
    typealias KeyFiles = (recipients: Data?, nameKey: Data?)

    /// The key files of the remote's commit `theirs`: from the working tree when it is `HEAD`
    /// (no git process for a round with nothing new), else from git; none without a remote.
    func keyFiles(of theirs: String?) throws(SyncError) -> KeyFiles {
        guard let theirs else { return try keyFiles(at: nil) }
        return try keyFiles(at: theirs == commit(named: "HEAD") ? nil : theirs)
    }

    /// The mirror's key files (`MirrorCipher`) in `commit`, or in the working tree when nil.
    func keyFiles(at commit: String?) throws(SyncError) -> KeyFiles {
        let paths = [MirrorCipher.recipientsFile, MirrorCipher.nameKeyFile]
        if let commit {
            let found = try files(paths.map { (commit, $0) })
            return (found[0], found[1])
        }
        let present = paths.map { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        return (present[0] ? try workingFile(paths[0]) : nil, present[1] ? try workingFile(paths[1]) : nil)
    }

    /// Whether the history of `HEAD` has note files from before the mirror had recipients
    /// (plain text, which pushing the history to a new remote would copy there).
    func historyHoldsPlainNotes() throws(SyncError) -> Bool {
        guard let head = try commit(named: "HEAD") else { return false }
        let adders = try git.run(["log", "--diff-filter=A", "--format=%H", head, "--", MirrorCipher.recipientsFile])
            .split(separator: "\n").map(String.init)
        // Never encrypted: any commit with note files is plain. Else the history before the
        // first commit that added recipients (none when the mirror began encrypted).
        let before = if let first = adders.last {
            try git.run(["rev-parse", "\(first)^@"]).split(separator: "\n").map(String.init)
        } else { [head] }
        guard !before.isEmpty else { return false }
        return !(try git.run(["rev-list", "-1"] + before + ["--", "notes/"]).isEmpty)
    }

    /// Encrypts in place the working tree's note and image files among `paths`, with `cipher`:
    /// each plain one, and when `all`, each encrypted one too (for a new set of recipients).
    /// A merge brings files as the other machine committed them; this keeps every commit of an
    /// encrypted mirror sealed for its current recipients.
    func seal(_ paths: [String], with cipher: MirrorCipher, all: Bool) throws(SyncError) {
        guard cipher.isEncrypted else { return }
        for path in paths where path.hasPrefix("notes/") || path.hasPrefix("images/") {
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path) else { continue }
            let file = try workingFile(path)
            guard all || !AgeFile.looksEncrypted(file) else { continue }
            try writeWorkingFile(path, try cipher.seal(try cipher.open(file, path: path)))
        }
    }

    /// The files that differ between two commits, any kind of change, under `notes/` and `images/`.
    func changedFiles(from: String, to: String) throws(SyncError) -> [String] {
        let output = try git.runForData(["diff", "--name-only", "--no-renames", "-z", from, to, "--", "notes", "images"])
        guard output.isEmpty || output.last == 0 else { throw .untrustedGitAnswer(command: "diff", expected: "a listing ending in NUL") }
        return output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// What an encrypted mirror's store commit already holds, so an export re-encrypts only what
/// changed: age encrypts the same bytes differently each time, and a note whose history says
/// "changed" but whose file reads the same must not become a new file (nor a no-op round send
/// something).
struct SealedTip {
    /// The plain text's hash of each note file asked for that the commit has.
    private let noteHashes: [String: SHA256Digest]
    private let images: Set<String>

    init(_ mirror: MirrorRepository, commit: String, notes paths: [String], cipher: MirrorCipher) throws(SyncError) {
        var hashes: [String: SHA256Digest] = [:]
        for (path, file) in zip(paths, try mirror.files(paths.map { (commit, $0) })) {
            if let file { hashes[path] = SHA256.hash(data: try cipher.open(file, path: path)) }
        }
        noteHashes = hashes
        let listing = try mirror.git.runForData(["ls-tree", "-r", "-z", "--name-only", commit, "--", "images/"])
        guard listing.isEmpty || listing.last == 0 else { throw .untrustedGitAnswer(command: "ls-tree", expected: "a listing ending in NUL") }
        images = Set(listing.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }

    /// Whether the commit holds this file already: an image by its (keyed) name, a note by its text.
    func holds(_ path: String, _ plaintext: Data) -> Bool {
        path.hasPrefix("images/") ? images.contains(path) : noteHashes[path] == SHA256.hash(data: plaintext)
    }
}
