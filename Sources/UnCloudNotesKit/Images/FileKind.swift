import Foundation

/// Names what a file that is not an accepted image really is, in plain words, so the error
/// says "report.pdf: it is a PDF document" rather than that no size was found.
enum FileKind {
    private static let signatures: [(prefix: [UInt8], offset: Int, name: String)] = [
        (Array("%PDF".utf8), 0, "a PDF document"),
        ([0x50, 0x4B, 0x03, 0x04], 0, "a ZIP archive (or a document stored as one)"),
        ([0x1F, 0x8B], 0, "a gzip archive"),
        ([0x7F, 0x45, 0x4C, 0x46], 0, "a program (ELF)"),
        (Array("BM".utf8), 0, "a BMP image, a format UnCloudNotes does not store"),
        (Array("II*\u{0}".utf8), 0, "a TIFF image, a format UnCloudNotes does not store"),
        (Array("MM\u{0}*".utf8), 0, "a TIFF image, a format UnCloudNotes does not store"),
        (Array("ftypheic".utf8), 4, "a HEIC image, a format UnCloudNotes does not store"),
        (Array("ftypmif1".utf8), 4, "a HEIF image, a format UnCloudNotes does not store"),
        (Array("ftypavif".utf8), 4, "an AVIF image, a format UnCloudNotes does not store"),
        (Array("SQLite format 3".utf8), 0, "an SQLite database"),
    ]

    static func describe(_ data: Data) -> String {
        let bytes = ByteReader(data)
        if data.isEmpty { return "an empty file" }
        if let match = signatures.first(where: { bytes.starts(with: $0.prefix, at: $0.offset) }) { return match.name }
        let head = data.prefix(4096)
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("<svg") { return "an SVG drawing, a format UnCloudNotes does not store" }
        let looksLikeText = !head.contains(0) && String(validatingUTF8CString: head) != nil
        return looksLikeText ? "a text file" : "a file of unknown type (\(data.count.counting("byte")))"
    }
}

private extension String {
    /// Valid UTF-8 (a truncated last character at the cut is forgiven).
    init?(validatingUTF8CString data: Data) {
        var bytes = Array(data)
        for _ in 0..<4 {
            if let text = String(validating: bytes, as: UTF8.self) { self = text; return }
            guard !bytes.isEmpty else { break }
            bytes.removeLast()
        }
        return nil
    }
}
