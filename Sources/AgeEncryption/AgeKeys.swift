import Crypto
import Foundation

/// A public key files are encrypted to: `age1…`, an X25519 public key in Bech32.
public struct AgeRecipient: Hashable, Sendable, CustomStringConvertible {
    /// The X25519 public key's 32 bytes.
    let rawKey: Data

    public init(_ text: String) throws(AgeError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let (prefix, bytes) = Bech32.decode(trimmed), prefix == "age", bytes.count == 32 else {
            throw .malformedRecipient(trimmed)
        }
        rawKey = Data(bytes)
    }

    init(rawKey: Data) {
        self.rawKey = rawKey
    }

    /// The key as written: `age1…`.
    public var description: String { Bech32.encode(prefix: "age", Array(rawKey)) }
}

/// A secret key that opens files encrypted to its recipient: `AGE-SECRET-KEY-1…`, an X25519
/// private key in Bech32, as `age-keygen` writes it.
public struct AgeIdentity: Sendable {
    /// The X25519 private key's 32 bytes, kept as bytes because swift-crypto's key is not
    /// `Sendable`.
    let rawKey: Data
    /// The public key to give to whoever encrypts for this identity.
    public let recipient: AgeRecipient

    /// A new identity from the system's random source.
    public init() {
        self.init(Curve25519.KeyAgreement.PrivateKey())
    }

    private init(_ key: Curve25519.KeyAgreement.PrivateKey) {
        rawKey = key.rawRepresentation
        // X25519(identity, basepoint), computed by swift-crypto.
        recipient = AgeRecipient(rawKey: key.publicKey.rawRepresentation)
    }

    /// swift-crypto's key; it takes any 32 bytes, which `rawKey` always is.
    var key: Curve25519.KeyAgreement.PrivateKey {
        get throws { try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: rawKey) }
    }

    /// Reads one `AGE-SECRET-KEY-1…` line; `line` is only for the error.
    init(line text: Substring, line: Int) throws(AgeError) {
        guard let (prefix, bytes) = Bech32.decode(String(text)), prefix == "age-secret-key-", bytes.count == 32,
              text.uppercased() == text
        else { throw .malformedIdentity(line: line) }
        do {
            self.init(try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: bytes))
        } catch {
            throw .malformedIdentity(line: line)
        }
    }

    /// The secret key's line: `AGE-SECRET-KEY-1…`.
    public var secretKeyLine: String {
        Bech32.encode(prefix: "age-secret-key-", Array(rawKey)).uppercased()
    }

    /// The identities in an identity file as `age-keygen` writes it: one secret key per line,
    /// `#` comments and blank lines ignored.
    public static func read(identityFile text: String) throws(AgeError) -> [AgeIdentity] {
        var identities: [AgeIdentity] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            identities.append(try AgeIdentity(line: Substring(trimmed), line: index + 1))
        }
        guard !identities.isEmpty else { throw .malformedIdentity(line: 1) }
        return identities
    }

    /// The identity file for this key, in `age-keygen`'s format (so `age -d -i` reads it).
    public func identityFile(created: Date) -> String {
        let stamp = ISO8601DateFormatter().string(from: created)
        return "# created: \(stamp)\n# public key: \(recipient)\n\(secretKeyLine)\n"
    }
}
