import Crypto
import Foundation

/// Image files in the mirror: `images/<sha256 of the bytes>.<extension>`, the extension read
/// from the bytes' signature so the files open as what they are; in an encrypted mirror
/// `images/<HMAC-SHA256 of the bytes>.age`, a name that reveals nothing of the content.
enum MirrorImageFile {
    /// How image files are named.
    enum Naming {
        case contentHash
        /// Keyed with the mirror's name key (`MirrorCipher`).
        case keyed(SymmetricKey)

        func path(for bytes: Data) -> String {
            switch self {
            case .contentHash: "images/\(hex(SHA256.hash(data: bytes))).\(MirrorImageFile.fileExtension(of: bytes))"
            case .keyed(let key): "images/\(hex(HMAC<SHA256>.authenticationCode(for: bytes, using: key))).age"
            }
        }

        private func hex(_ digest: some Sequence<UInt8>) -> String {
            digest.map { String(format: "%02x", $0) }.joined()
        }
    }

    static func isImagePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "images" else { return false }
        let name = parts[1].split(separator: ".")
        return name.count == 2 && name[0].count == 64 && name[0].allSatisfy(\.isHexDigit) && name[1].allSatisfy(\.isLetter)
    }

    fileprivate static func fileExtension(of bytes: Data) -> String {
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "png"), ([0xFF, 0xD8, 0xFF], "jpg"), ([0x47, 0x49, 0x46, 0x38], "gif"),
            ([0x42, 0x4D], "bmp"), ([0x52, 0x49, 0x46, 0x46], "webp"),
        ]
        return signatures.first { bytes.starts(with: $0.0) }?.1 ?? "bin"
    }
}
