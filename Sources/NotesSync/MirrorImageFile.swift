import Crypto
import Foundation

/// Image files in the mirror: `images/<sha256 of the bytes>.<extension>`, the extension read
/// from the bytes' signature so the files open as what they are.
enum MirrorImageFile {
    static func path(for bytes: Data) -> String {
        let hash = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        return "images/\(hash).\(fileExtension(of: bytes))"
    }

    static func isImagePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "images" else { return false }
        let name = parts[1].split(separator: ".")
        return name.count == 2 && name[0].count == 64 && name[0].allSatisfy(\.isHexDigit) && name[1].allSatisfy(\.isLetter)
    }

    private static func fileExtension(of bytes: Data) -> String {
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "png"), ([0xFF, 0xD8, 0xFF], "jpg"), ([0x47, 0x49, 0x46, 0x38], "gif"),
            ([0x42, 0x4D], "bmp"), ([0x52, 0x49, 0x46, 0x46], "webp"),
        ]
        return signatures.first { bytes.starts(with: $0.0) }?.1 ?? "bin"
    }
}
