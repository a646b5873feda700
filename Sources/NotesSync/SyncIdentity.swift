import AgeEncryption
import Foundation
import UnCloudNotesKit

/// This machine's age key for encrypted mirrors: an identity file in `age-keygen`'s format
/// (0600), by default `$XDG_CONFIG_HOME/uncloudnotes/age-identity.txt`, made on first need.
/// The same file can be copied to several machines, or one made by `age-keygen` given instead.
struct SyncIdentity {
    let file: URL
    /// Whether a missing file is made: only the default one. A file the user named (or one
    /// named before and remembered) that is missing is an error, so a typo makes no new key.
    var mayCreate = true
    /// Whether this machine encrypted the mirror with this key before: then a missing file is a
    /// lost key (`identityLost`), never replaced by a new one that could open nothing.
    var encryptedBefore = false

    static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ConfigFolder.url(environment: environment).appendingPathComponent("age-identity.txt")
    }

    /// The file's identities; nil when there is no file.
    func read() throws(SyncError) -> [AgeIdentity]? {
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch let error as CocoaError where error.code == .fileReadUnknown || error.code == .fileNoSuchFile {
            throw .identityMissing(path: file.path)
        } catch {
            throw .file(path: file.path, error)
        }
        do {
            return try AgeIdentity.read(identityFile: text)
        } catch {
            throw .identity(path: file.path, error)
        }
    }

    /// The file's identities, made (a new key, its folder 0700, the file 0600) when there is none.
    func readOrCreate() throws(SyncError) -> [AgeIdentity] {
        if let identities = try read() { return identities }
        if encryptedBefore { throw .identityLost(path: file.path) }
        guard mayCreate else { throw .identityMissing(path: file.path) }
        let identity = AgeIdentity()
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try PrivateFiles.replace(file, with: Data(identity.identityFile(created: Date()).utf8))
        } catch {
            throw .file(path: file.path, error)
        }
        return [identity]
    }
}
