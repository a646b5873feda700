import Testing
import UnCloudNotesKit

/// Bytes that are not UTF-8 become U+FFFD, as Swift decodes them, and are counted.
@Suite struct DecodedTextTests {
    @Test("UTF-8 is kept and nothing is counted")
    func validText() {
        let decoded = DecodedText(utf8: Array("café 日本 🙂".utf8))
        #expect(decoded.text == "café 日本 🙂" && decoded.replacedBytes == 0)
    }

    @Test("a Latin-1 byte, stray bytes and a cut sequence: each replaced, every byte counted",
          arguments: [([0x63, 0x61, 0x66, 0xE9], "caf\u{FFFD}", 1),
                      ([0x61, 0xFF, 0xFE, 0x62], "a\u{FFFD}\u{FFFD}b", 2),
                      ([0x78, 0xE6, 0x97], "x\u{FFFD}", 2)] as [([UInt8], String, Int)])
    func invalidBytes(bytes: [UInt8], text: String, replaced: Int) {
        let decoded = DecodedText(utf8: bytes)
        #expect(decoded.text == text && decoded.text == String(decoding: bytes, as: UTF8.self))
        #expect(decoded.replacedBytes == replaced)
    }
}
