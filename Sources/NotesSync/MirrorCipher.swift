import AgeEncryption
import Crypto
import Foundation

/// How the mirror's note and image files are held: as they are, or encrypted with age for the
/// recipients the mirror's `.age-recipients` lists (docs/sync.md, "Encrypted remotes"). Only
/// the files under `notes/` and `images/` are encrypted; the marker, the recipients (public
/// keys) and the image-name key (itself encrypted) say how to read them.
struct MirrorCipher: Sendable {
    static let recipientsFile = ".age-recipients"
    static let nameKeyFile = ".uncloudnotes-names.age"

    /// What an encrypted mirror's files are sealed for and opened with.
    struct Keys: Sendable {
        let recipients: [AgeRecipient]
        let identities: [AgeIdentity]
        /// The key of image file names, shared by all recipients: a name is a keyed hash of the
        /// bytes, so equal images are one file on every machine and the name reveals nothing.
        /// (Its 32 bytes: swift-crypto's key type is not `Sendable`.)
        let nameKey: Data
    }

    static let plain = MirrorCipher(keys: nil)

    /// nil: plain files.
    let keys: Keys?

    var isEncrypted: Bool { keys != nil }

    /// The bytes to commit for a file's content.
    func seal(_ plaintext: Data) throws(SyncError) -> Data {
        guard let keys else { return plaintext }
        do {
            return try AgeFile.encrypt(plaintext, to: keys.recipients)
        } catch {
            throw .encryption(error)
        }
    }

    /// A committed file's content. An encrypted mirror may still hold plain files from before it
    /// was encrypted (in its history, as merge bases), which are read as they are.
    func open(_ file: Data, path: String) throws(SyncError) -> Data {
        guard AgeFile.looksEncrypted(file) else { return file }
        guard let keys else { throw .encryptedMirrorFile(path: path) }
        do {
            return try AgeFile.decrypt(file, with: keys.identities)
        } catch {
            throw .undecryptableFile(path: path, error)
        }
    }

    /// The image file for these bytes: a keyed hash when encrypted, else the content's hash.
    var imageNaming: MirrorImageFile.Naming {
        keys.map { .keyed(SymmetricKey(data: $0.nameKey)) } ?? .contentHash
    }

    // MARK: The mirror's key files

    /// The cipher the mirror's key files describe: plain without a recipients file; else this
    /// machine's identities must be among the recipients (`notARecipient` names its own).
    static func reading(recipients recipientsFile: Data?, nameKey sealedNameKey: Data?, identity: SyncIdentity) throws(SyncError) -> MirrorCipher {
        guard let recipientsFile else { return .plain }
        let recipients = try parseRecipients(recipientsFile)
        let identities = try identity.readOrCreate()
        guard let sealedNameKey else { throw .unreadableKeyFile(path: nameKeyFile, reason: .noNameKey) }
        let nameKey: Data
        do {
            nameKey = try AgeFile.decrypt(sealedNameKey, with: identities)
        } catch .noMatchingIdentity {
            throw .notARecipient(recipient: identities[0].recipient.description, identityFile: identity.file.path)
        } catch {
            throw .undecryptableFile(path: nameKeyFile, error)
        }
        guard nameKey.count == 32 else { throw .unreadableKeyFile(path: nameKeyFile, reason: .nameKeyNot32Bytes) }
        return MirrorCipher(keys: Keys(recipients: recipients, identities: identities, nameKey: nameKey))
    }

    /// A cipher for `recipients` with this name key (a new one when nil).
    static func new(recipients: [AgeRecipient], identities: [AgeIdentity], nameKey: Data? = nil) -> MirrorCipher {
        let key = nameKey ?? SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        return MirrorCipher(keys: Keys(recipients: recipients, identities: identities, nameKey: key))
    }

    /// The key files that describe this cipher: recipients (one `age1…` a line) and the name key
    /// sealed for them. Empty for a plain mirror.
    func keyFiles() throws(SyncError) -> [(path: String, bytes: Data)] {
        guard let keys else { return [] }
        let listing = "# The age recipients this mirror's notes and images are encrypted for (uncloudnotes sync recipients).\n"
            + keys.recipients.map { "\($0)\n" }.joined()
        return [(Self.recipientsFile, Data(listing.utf8)), (Self.nameKeyFile, try seal(keys.nameKey))]
    }

    /// The recipients of a `.age-recipients` file: one `age1…` a line, `#` comments and blank
    /// lines ignored, as passage and age's `-R` read it.
    static func parseRecipients(_ file: Data) throws(SyncError) -> [AgeRecipient] {
        var recipients: [AgeRecipient] = []
        for line in String(decoding: file, as: UTF8.self).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, !text.hasPrefix("#") else { continue }
            do {
                recipients.append(try AgeRecipient(text))
            } catch {
                throw .unreadableKeyFile(path: recipientsFile, reason: .badRecipient(error))
            }
        }
        guard !recipients.isEmpty else { throw .unreadableKeyFile(path: recipientsFile, reason: .noRecipient) }
        return recipients
    }
}
