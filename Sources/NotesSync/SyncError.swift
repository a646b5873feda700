import AgeEncryption
import ManagedStore
import Foundation
import Processes

/// Why a sync stopped. Each case keeps what went wrong; `description` is the one line the
/// command prints. Local work is kept whatever the case: the store is written only by the
/// apply step's one transaction, and the mirror's commits stay.
public indirect enum SyncError: Error, CustomStringConvertible {
    /// A note file that is not as docs/sync.md specifies (hand-edited, say).
    case unreadableNoteFile(path: String, reason: NoteFileProblem)
    /// A note file names an image file the mirror does not have.
    case missingImageFile(note: String, file: String)
    /// A git command failed.
    case git(GitFailure)
    /// No git on `PATH`.
    case noGit
    /// git could not be run at all (or its answer read back); the runner's failure says why.
    case cannotRunGit(arguments: [String], ProcessFailure)
    /// A git command exited 0 with an answer that is not of the shape asked for (no commit id,
    /// a listing that does not parse, a listing that disagrees with the trees it lists): sync
    /// stops rather than read it as "absent" or "done".
    case untrustedGitAnswer(command: String, expected: String)
    /// The remote could not be read (unreachable, no such repository, refused credentials).
    case remoteUnreachable(remote: String, GitFailure)
    /// The remote refused the push for a reason other than having moved on.
    case pushRejected(remote: String, GitFailure)
    /// The remote's branch is not a notes mirror: sync leaves it untouched.
    case remoteNotAMirror(remote: String, reason: NotAMirrorReason)
    /// The mirror folder holds something that is not a notes mirror.
    case folderNotAMirror(path: String, reason: NotAMirrorReason)
    /// The first sync of a mirror needs `--remote`.
    case noRemote(mirror: String)
    /// The store's version has no note identifiers (before v5), which the files are named by.
    case storeWithoutIdentifiers(version: String)
    /// Another sync of this mirror is running.
    case alreadyRunning(mirror: String)
    /// The remote kept moving (or other processes kept writing the store) through every retry.
    case tooManyRetries(Int)
    /// The store could not be read or written.
    case store(any Error)
    /// A file of the mirror could not be read or written.
    case file(path: String, any Error)
    /// The mirror is encrypted and this machine's key is not among its recipients.
    case notARecipient(recipient: String, identityFile: String)
    /// The identity file named with `--identity` (now or before) is not there, or is a folder.
    case identityMissing(path: String)
    /// The identity file does not hold age secret keys.
    case identity(path: String, AgeError)
    /// A mirror file could not be decrypted (another key, changed, cut): nothing was applied.
    case undecryptableFile(path: String, AgeError)
    /// An encrypted file in a mirror this machine reads as plain.
    case encryptedMirrorFile(path: String)
    /// A plain note or image file that another commit brought into an encrypted mirror: an
    /// encrypted mirror takes only encrypted files (the host could otherwise write notes).
    case unsealedFile(path: String)
    /// A file the remote's commit brought could not be taken (`cause`): the commit that last
    /// changed it there, and its author, so the user can tell their own machines' work from
    /// someone else's and undo it on the remote.
    case refusedRemoteFile(commit: String, author: String, cause: SyncError)
    /// The mirror's recipients or name key file is not as sync writes it.
    case unreadableKeyFile(path: String, reason: KeyFileProblem)
    /// A file could not be encrypted.
    case encryption(AgeError)
    /// The remote lists recipients this machine has not accepted (another machine's
    /// `recipients add`, or a host adding its own key): nothing was encrypted for them.
    case unacceptedRecipients([String])
    /// The mirror was encrypted (this machine encrypted for it) and now lists no recipients:
    /// sync never sends notes plain again.
    case encryptionRemoved
    /// A new remote for a mirror whose history holds notes in plain text, which pushing would copy there.
    case plainHistory(mirror: String, remote: String)
    /// This machine's default age key is gone, though it encrypted this mirror before.
    case identityLost(path: String)
    /// A change of recipients that sync refuses, and why.
    case recipientsRefused(RecipientsRefusal)

    public var description: String {
        switch self {
        case .unreadableNoteFile(let path, let reason): "mirror file \(path) cannot be read: \(reason)"
        case .missingImageFile(let note, let file): "mirror file \(note) names \(file), which the mirror does not have"
        case .git(let failure): "\(failure)"
        case .noGit: "cannot run git: no git on PATH (install git)"
        case .cannotRunGit(let arguments, let failure): "cannot run git \(arguments.first ?? ""): \(failure)"
        case .untrustedGitAnswer(let command, let expected):
            "git \(command) gave an answer sync cannot trust (expected \(expected)); nothing was marked sent, local work is kept"
        case .remoteUnreachable(let remote, let failure): "cannot reach the remote \(RemoteAddress.redacted(remote)): \(failure.message); local work is kept"
        case .pushRejected(let remote, let failure): "the remote \(RemoteAddress.redacted(remote)) refused the push: \(failure.message); local work is kept"
        case .remoteNotAMirror(let remote, let reason): "the remote \(RemoteAddress.redacted(remote)) is not an uncloudnotes mirror (\(reason)); it was left untouched"
        case .folderNotAMirror(let path, let reason): "\(path) is not an uncloudnotes mirror (\(reason)); choose another folder with --mirror"
        case .noRemote(let mirror): "no remote to sync with yet: give one with --remote URL (the mirror is \(mirror))"
        case .storeWithoutIdentifiers(let version): "sync needs notes with identifiers (model v5); this store runs as \(version)"
        case .alreadyRunning(let mirror): "another sync of \(mirror) is running"
        case .tooManyRetries(let count): "gave up after \(count) tries: the remote or the store kept changing; local work is kept, sync again"
        case .store(let error): "\(error)"
        case .file(let path, let error): "\(path): \(ErrorText.oneLine(error))"
        case .notARecipient(let recipient, let identityFile):
            "the remote is encrypted and this machine's key is not one of its recipients: on a machine that syncs with it, run `uncloudnotes sync recipients add \(recipient)`, then sync here again (this machine's key is in \(identityFile))"
        case .identity(let path, let error): "the age identity \(path) cannot be read: \(error)"
        case .identityMissing(let path):
            "the age identity \(path) is not there (or is no file): give an existing one with --identity FILE (age-keygen -o FILE makes one), or leave --identity out to use this machine's own"
        case .undecryptableFile(let path, let error): "mirror file \(path) cannot be decrypted: \(error); nothing was applied"
        case .encryptedMirrorFile(let path):
            "mirror file \(path) is encrypted but the mirror has no \(MirrorCipher.recipientsFile); nothing was applied"
        case .unsealedFile(let path): "mirror file \(path) is not encrypted, in an encrypted mirror; nothing was applied"
        case .refusedRemoteFile(let commit, let author, let cause):
            "\(cause). It came with the remote's commit \(commit.prefix(12)) by \(author): if no machine of yours made it, someone else wrote to the remote. "
                + "Undo it there (in a clone of the remote: git revert \(commit.prefix(12)), then git push), then sync again"
        case .unreadableKeyFile(let path, let reason): "the mirror's \(path) cannot be read: \(reason)"
        case .encryption(let error): "cannot encrypt: \(error)"
        case .recipientsRefused(let refusal): "\(refusal)"
        case .encryptionRemoved:
            "the mirror is encrypted, but its \(MirrorCipher.recipientsFile) is gone: sync never sends notes unencrypted again, so nothing was sent"
        case .plainHistory(let mirror, let remote):
            "the history of the mirror \(mirror) holds notes in plain text, which pushing it would copy to \(RemoteAddress.redacted(remote)): "
                + "move \(mirror) aside (it stays as a backup), then sync again with --encrypt --remote \(RemoteAddress.redacted(remote))"
        case .identityLost(let path):
            "this machine's age key \(path) is gone, but this mirror was encrypted with it: restore the file from a backup "
                + "(or copy it from a machine that shares it); to use a new key instead, make one (age-keygen -o FILE), "
                + "sync with --identity FILE, and add the key it prints with `uncloudnotes sync recipients add` on a machine with access"
        case .unacceptedRecipients(let keys):
            "the remote now lists \(keys.joined(separator: ", ")), which this machine has not accepted as \(keys.count == 1 ? "a recipient" : "recipients"); nothing was sent. "
                + "If you added \(keys.count == 1 ? "it" : "them") on another machine, accept \(keys.count == 1 ? "it" : "them") here with "
                + keys.map { "`uncloudnotes sync recipients add \($0)`" }.joined(separator: " and ") + "; "
                + "if not, whoever can write to the remote added \(keys.count == 1 ? "it" : "them") to read your notes"
        }
    }
}

/// A git command that exited non-zero: its arguments, status and the first line git printed.
public struct GitFailure: Error, CustomStringConvertible, Sendable {
    public let arguments: [String]
    public let status: Int32
    public let standardError: String

    /// git's own words, as one line (its last `fatal:`/`error:` line when it has one).
    public var message: String {
        let lines = standardError.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let chosen = lines.last { $0.hasPrefix("fatal:") || $0.hasPrefix("error:") } ?? lines.last ?? "exit status \(status)"
        return chosen.hasSuffix(".") ? String(chosen.dropLast()) : chosen
    }

    public var description: String { "git \(arguments.first ?? "") failed: \(message)" }
}

/// Why `sync recipients` refused a change; each says what to do instead.
public enum RecipientsRefusal: Equatable, Sendable, CustomStringConvertible {
    /// Recipients belong to an encrypted mirror.
    case notEncrypted
    /// No sync has made the mirror yet.
    case noMirror(String)
    /// The remote is encrypted (for this machine too) but the mirror here has not synced since.
    case notReceivedYet
    case alreadyListed(String)
    case notListed(String)
    /// Not an `age1…` public key.
    case malformed(String)
    /// Removing the last recipient would leave files no one can open.
    case lastRecipient
    /// Removing this machine's own key would lock it out of the mirror it is changing.
    case ownKey(String)

    public var description: String {
        switch self {
        case .notEncrypted: "the mirror is not encrypted: turn encryption on with `uncloudnotes sync --encrypt`"
        case .noMirror(let path):
            "there is no mirror at \(path) yet: the first `uncloudnotes sync --remote URL` makes it (with --encrypt, encrypted)"
        case .notReceivedYet: "the remote is encrypted but this machine's mirror has not synced since: run `uncloudnotes sync` first"
        case .alreadyListed(let key): "\(key) is a recipient already; nothing changed"
        case .malformed(let text) where text.uppercased().hasPrefix("AGE-SECRET-KEY-"):
            "that is a secret key (AGE-SECRET-KEY-…), which must never be shared; give its public key age1… instead (age-keygen -y FILE prints it)"
        case .malformed(let text): "\(text) is not an age recipient (a public key age1…, as age-keygen -y prints it)"
        case .notListed(let key): "\(key) is not a recipient of this mirror (see `uncloudnotes sync recipients list`)"
        case .lastRecipient: "that is the mirror's only recipient: with none left, no one could open its files"
        case .ownKey(let key): "\(key) is this machine's own key: remove it from another machine that syncs with the mirror"
        }
    }
}
