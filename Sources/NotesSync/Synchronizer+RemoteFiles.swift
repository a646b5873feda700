import AgeEncryption
import Foundation

/// What sync checks of the files a remote's commit brings, and how it names that commit when a
/// file cannot be taken: so a user stuck on a damaged or forged file knows which commit to undo.
extension Synchronizer {
    /// Runs `work` (a merge or an apply of `theirs`); a file it cannot take is reported with the
    /// commit of `theirs` that last changed it and its author (`refusedRemoteFile`).
    func attributing<Result>(to theirs: String?, in mirror: MirrorRepository,
                             _ work: () throws(SyncError) -> Result) throws(SyncError) -> Result {
        do {
            return try work()
        } catch {
            guard let theirs, let path = error.remoteFilePath,
                  let (commit, author) = try lastChange(of: path, in: theirs, mirror: mirror) else { throw error }
            throw .refusedRemoteFile(commit: commit, author: author, cause: error)
        }
    }

    /// In a remote whose commit lists recipients, every note file it changed since the history
    /// this mirror shares with it must be encrypted: a plain one was written by something that
    /// is not a recipient's sync (the host, or a hand), and is refused before it is merged.
    /// `theirsKeys`: the key files of `theirs`, as the round read them.
    func requireSealedNotes(from theirs: String, keys theirsKeys: MirrorRepository.KeyFiles, in mirror: MirrorRepository) throws(SyncError) {
        let head = try mirror.commit(named: "HEAD")
        guard head != theirs, theirsKeys.recipients != nil else { return }
        let base = try head.map { head throws(SyncError) in try mirror.mergeBase(head, theirs) } ?? MirrorRepository.emptyTree
        let paths = try mirror.changedNotes(from: base, to: theirs).filter { $0.kind != .deleted }.map(\.path)
        // Notes are small; a batch at a time keeps memory flat on a first sync of many.
        for start in stride(from: 0, to: paths.count, by: 256) {
            let batch = Array(paths[start..<min(start + 256, paths.count)])
            for (path, file) in zip(batch, try mirror.files(batch.map { (theirs, $0) })) {
                if let file, !AgeFile.looksEncrypted(file) { throw .unsealedFile(path: path) }
            }
        }
    }

    /// The commit of `theirs`'s history that last changed `path`, and its author's name; nil
    /// when none did.
    private func lastChange(of path: String, in theirs: String, mirror: MirrorRepository) throws(SyncError) -> (String, String)? {
        let line = try mirror.git.run(["log", "-1", "--format=%H%x09%an", theirs, "--", path]).trimmingCharacters(in: .newlines)
        guard !line.isEmpty else { return nil }
        let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
        guard fields.count == 2, GitAnswer.isObjectID(fields[0]) else {
            throw .untrustedGitAnswer(command: "log", expected: "a commit id and its author")
        }
        return (fields[0], fields[1])
    }
}

extension SyncError {
    /// The mirror file a case is about, when it is about one the remote may have brought.
    var remoteFilePath: String? {
        switch self {
        case .undecryptableFile(let path, _), .unsealedFile(let path), .unreadableNoteFile(let path, _), .encryptedMirrorFile(let path): path
        case .missingImageFile(let note, _): note
        case .encryptionRemoved, .unacceptedRecipients: MirrorCipher.recipientsFile
        case .unreadableKeyFile(let path, _): path
        default: nil
        }
    }
}
