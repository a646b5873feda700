import Foundation

/// The base64 age writes: the standard alphabet, no `=` padding, canonical only (a decoder
/// refuses text whose unused bits are set, so one value has exactly one spelling).
enum UnpaddedBase64 {
    static func encode(_ bytes: some DataProtocol) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// The bytes of `text`, or nil when it is not canonical unpadded base64.
    static func decode(_ text: some StringProtocol) -> Data? {
        guard text.utf8.allSatisfy(isAlphabet), text.count % 4 != 1 else { return nil }
        let padded = String(text) + String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: padded), encode(data) == text else { return nil }
        return data
    }

    static func isAlphabet(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == 43 || byte == 47
    }
}
