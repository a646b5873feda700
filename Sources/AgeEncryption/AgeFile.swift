import Crypto
import Foundation

/// Encrypting and opening files in the age v1 format (c2sp.org/age) for X25519 recipients, so
/// that `age -d` opens what this writes and this opens what `age -e` writes. Every primitive is
/// swift-crypto's (X25519, HKDF-SHA-256, ChaCha20-Poly1305, HMAC-SHA-256); only the framing is
/// ours. Files are held in memory whole: the mirror's files are notes and images.
public enum AgeFile {
    private static let x25519Info = Data("age-encryption.org/v1/X25519".utf8)
    private static let zeroNonce = Data(count: 12)

    /// `plaintext` encrypted so that each of `recipients` can open it.
    public static func encrypt(_ plaintext: Data, to recipients: [AgeRecipient]) throws(AgeError) -> Data {
        guard !recipients.isEmpty else { throw .noRecipients }
        let fileKey = SymmetricKey(size: .bits128)
        do {
            let stanzas = try recipients.map { recipient in try wrap(fileKey, for: recipient) }
            var file = AgeHeader.authenticatedBytes(of: stanzas)
            file.append(Data((" " + UnpaddedBase64.encode(headerMAC(of: file, fileKey: fileKey)) + "\n").utf8))
            let nonce = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
            file.append(nonce)
            file.append(try AgePayload.seal(plaintext, key: payloadKey(fileKey, nonce: nonce)))
            return file
        } catch let error as AgeError {
            throw error
        } catch {
            // swift-crypto fails only on a recipient whose agreement gives no secret.
            throw .weakRecipient
        }
    }

    /// The plaintext of `file`, opened with the first of `identities` that unwraps its key.
    /// Nothing is returned unless the header's MAC and every chunk authenticate.
    public static func decrypt(_ file: Data, with identities: [AgeIdentity]) throws(AgeError) -> Data {
        let header = try AgeHeader(parsing: file)
        var fileKey: SymmetricKey?
        for stanza in header.stanzas where stanza.arguments.first == "X25519" {
            guard stanza.arguments.count == 2, let share = UnpaddedBase64.decode(stanza.arguments[1]), share.count == 32,
                  stanza.body.count == 32
            else { throw .malformedStanza(line: stanza.line) }
            for identity in identities {
                if let key = unwrap(stanza.body, share: share, identity: identity) {
                    fileKey = key
                    break
                }
            }
            if fileKey != nil { break }
        }
        guard let fileKey else { throw .noMatchingIdentity }
        guard HMAC<SHA256>.isValidAuthenticationCode(header.mac, authenticating: header.authenticatedBytes,
                                                     using: macKey(fileKey)) else { throw .headerChanged }
        let payload = file[header.payloadOffset...]
        guard payload.count >= 16 else { throw .truncated }
        return try AgePayload.open(payload.dropFirst(16), key: payloadKey(fileKey, nonce: payload.prefix(16)))
    }

    /// Whether `file` starts as an age v1 file (its version line), without opening it.
    public static func looksEncrypted(_ file: Data) -> Bool {
        file.starts(with: AgeHeader.versionLine)
    }

    private static func wrap(_ fileKey: SymmetricKey, for recipient: AgeRecipient) throws -> AgeHeader.Stanza {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let share = ephemeral.publicKey.rawRepresentation
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: Curve25519.KeyAgreement.PublicKey(rawRepresentation: recipient.rawKey))
        guard !isAllZero(shared) else { throw AgeError.weakRecipient }
        let wrapKey = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: share + recipient.rawKey,
                                                     sharedInfo: x25519Info, outputByteCount: 32)
        let box = try ChaChaPoly.seal(fileKey.withUnsafeBytes { Data($0) }, using: wrapKey, nonce: ChaChaPoly.Nonce(data: zeroNonce))
        return AgeHeader.Stanza(arguments: ["X25519", UnpaddedBase64.encode(share)], body: box.ciphertext + box.tag)
    }

    /// The file key in `body`, or nil when `identity` is not the one it was wrapped for.
    private static func unwrap(_ body: Data, share: Data, identity: AgeIdentity) -> SymmetricKey? {
        do {
            let key = try identity.key
            let shared = try key.sharedSecretFromKeyAgreement(with: Curve25519.KeyAgreement.PublicKey(rawRepresentation: share))
            guard !isAllZero(shared) else { return nil }
            let wrapKey = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: share + key.publicKey.rawRepresentation,
                                                         sharedInfo: x25519Info, outputByteCount: 32)
            let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: zeroNonce), ciphertext: body.prefix(16), tag: body.suffix(16))
            return SymmetricKey(data: try ChaChaPoly.open(box, using: wrapKey))
        } catch {
            // A stanza for another recipient fails to authenticate: try the next.
            return nil
        }
    }

    private static func isAllZero(_ secret: SharedSecret) -> Bool {
        secret.withUnsafeBytes { $0.allSatisfy { $0 == 0 } }
    }

    private static func headerMAC(of bytes: Data, fileKey: SymmetricKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: bytes, using: macKey(fileKey)))
    }

    private static func macKey(_ fileKey: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: fileKey, salt: Data(), info: Data("header".utf8), outputByteCount: 32)
    }

    private static func payloadKey(_ fileKey: SymmetricKey, nonce: Data) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: fileKey, salt: nonce, info: Data("payload".utf8), outputByteCount: 32)
    }
}
