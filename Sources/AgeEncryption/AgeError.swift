/// Why a file could not be encrypted or opened, or a key not read. Each case is one line for
/// the user (`description`); none of them ever repeats a secret key.
public enum AgeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data does not start with age's version line.
    case notAnAgeFile
    /// An age file of a version other than v1.
    case unsupportedVersion(String)
    /// The header breaks the format at this line (counted from 1).
    case malformedHeader(line: Int)
    /// A stanza this implementation reads (X25519) with the wrong arguments or body size.
    case malformedStanza(line: Int)
    /// The header's MAC does not match: it was changed, or the key opened another file's header.
    case headerChanged
    /// None of the identities given can unwrap the file key.
    case noMatchingIdentity
    /// The payload ends before its final chunk.
    case truncated
    /// A payload chunk (counted from 0) does not authenticate: changed, reordered or cut.
    case chunkChanged(index: Int)
    /// Bytes after the final chunk, or an empty final chunk after others.
    case trailingData
    /// Encrypting needs at least one recipient.
    case noRecipients
    /// Not an `age1…` public key; the text is kept (a public key is no secret).
    case malformedRecipient(String)
    /// Not an `AGE-SECRET-KEY-1…` line. The line is never kept, so it cannot leak into a log.
    case malformedIdentity(line: Int)
    /// A recipient whose key agreement gives the all-zero secret (a low-order point).
    case weakRecipient

    public var description: String {
        switch self {
        case .notAnAgeFile: "not an age-encrypted file"
        case .unsupportedVersion(let version): "an age file of version \(version), which this program cannot read (it reads v1)"
        case .malformedHeader(let line): "the age header is damaged at line \(line)"
        case .malformedStanza(let line): "the age header's X25519 stanza at line \(line) is damaged"
        case .headerChanged: "the age header was changed (its MAC does not match); nothing was decrypted"
        case .noMatchingIdentity: "none of the given keys can open this file (it was encrypted for other recipients)"
        case .truncated: "the encrypted file is cut short; nothing was decrypted"
        case .chunkChanged(let index): "the encrypted file's chunk \(index) was changed, reordered or cut; nothing was decrypted"
        case .trailingData: "the encrypted file has data after its end; nothing was decrypted"
        case .noRecipients: "no recipients to encrypt for"
        case .malformedRecipient(let text): "\(text) is not an age recipient (age1…)"
        case .malformedIdentity(let line): "line \(line) of the identity is not an age secret key (AGE-SECRET-KEY-1…)"
        case .weakRecipient: "the recipient is not a usable X25519 key"
        }
    }
}
