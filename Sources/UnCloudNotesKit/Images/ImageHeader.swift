import Foundation

/// An image's format and size, read in Swift from the first bytes of the file, without
/// decoding anything: a decompression bomb (a small PNG claiming 30000 x 30000 pixels) is known
/// for what it is before any pixel memory is allocated.
public struct ImageHeader: Equatable, Sendable {
    /// The formats UnCloudNotes accepts (when gdk-pixbuf has a loader for them).
    public enum Format: String, CaseIterable, Sendable {
        /// PNG, JPEG, GIF and WebP.
        case png, jpeg, gif, webp

        /// The name people know the format by.
        public var displayName: String {
            switch self {
            case .png: "PNG"
            case .jpeg: "JPEG"
            case .gif: "GIF"
            case .webp: "WebP"
            }
        }
    }

    /// The image's format.
    public var format: Format
    /// Width in pixels, as the header claims it.
    public var width: Int
    /// Height in pixels, as the header claims it.
    public var height: Int

    /// Width times height, without overflow (both come from at most 32 bits).
    public var pixelCount: Int { width.multipliedReportingOverflow(by: height).overflow ? Int.max : width * height }

    /// Reads the header, or says in plain words what the bytes are instead.
    public init(_ data: Data) throws {
        let bytes = ByteReader(data)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The IHDR chunk comes first: length, "IHDR", width and height (big-endian).
            guard bytes.ascii(at: 12, count: 4) == "IHDR", let width = bytes.uint32BE(at: 16), let height = bytes.uint32BE(at: 20) else {
                throw ImageError.broken(.noSize(.png))
            }
            self.init(format: .png, width: width, height: height)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = try Self.jpeg(bytes)
        } else if bytes.ascii(at: 0, count: 6) == "GIF87a" || bytes.ascii(at: 0, count: 6) == "GIF89a" {
            guard let width = bytes.uint16LE(at: 6), let height = bytes.uint16LE(at: 8) else {
                throw ImageError.broken(.noSize(.gif))
            }
            self.init(format: .gif, width: width, height: height)
        } else if bytes.ascii(at: 0, count: 4) == "RIFF", bytes.ascii(at: 8, count: 4) == "WEBP" {
            self = try Self.webp(bytes)
        } else {
            throw ImageError.notAnImage(what: FileKind.describe(data))
        }
        guard width > 0, height > 0 else { throw ImageError.broken(.impossibleSize(format, width: width, height: height)) }
    }

    init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// JPEG: the frame header (SOFn) gives the size; segments before it are skipped by length.
    private static func jpeg(_ bytes: ByteReader) throws -> ImageHeader {
        var offset = 2
        while let marker = bytes.byte(at: offset), marker == 0xFF {
            guard let kind = bytes.byte(at: offset + 1) else { break }
            if kind == 0xFF { offset += 1; continue }  // fill byte
            if kind == 0x01 || (0xD0...0xD7).contains(kind) { offset += 2; continue }  // no length
            guard let length = bytes.uint16BE(at: offset + 2), length >= 2 else { break }
            let isFrame = (0xC0...0xCF).contains(kind) && ![0xC4, 0xC8, 0xCC].contains(kind)
            if isFrame {
                guard let height = bytes.uint16BE(at: offset + 5), let width = bytes.uint16BE(at: offset + 7) else { break }
                return ImageHeader(format: .jpeg, width: width, height: height)
            }
            if kind == 0xDA { break }  // image data before any frame header
            offset += 2 + length
        }
        throw ImageError.broken(.noSize(.jpeg))
    }

    /// WebP: a lossy (VP8), lossless (VP8L) or extended (VP8X) first chunk.
    private static func webp(_ bytes: ByteReader) throws -> ImageHeader {
        switch bytes.ascii(at: 12, count: 4) {
        case "VP8 ":
            if bytes.starts(with: [0x9D, 0x01, 0x2A], at: 23), let width = bytes.uint16LE(at: 26), let height = bytes.uint16LE(at: 28) {
                return ImageHeader(format: .webp, width: width & 0x3FFF, height: height & 0x3FFF)
            }
        case "VP8L":
            if bytes.byte(at: 20) == 0x2F, let bits = bytes.uint32LE(at: 21) {
                return ImageHeader(format: .webp, width: bits & 0x3FFF + 1, height: (bits >> 14) & 0x3FFF + 1)
            }
        case "VP8X":
            if let width = bytes.uint24LE(at: 24), let height = bytes.uint24LE(at: 27) {
                return ImageHeader(format: .webp, width: width + 1, height: height + 1)
            }
        default:
            break
        }
        throw ImageError.broken(.noSize(.webp))
    }
}

/// Bounds-checked reads of little numbers from a byte buffer: nil past the end, never a trap.
struct ByteReader {
    let data: Data

    init(_ data: Data) {
        self.data = data
    }

    func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < data.count ? data[data.startIndex + offset] : nil
    }

    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= data.count - count else { return nil }
        return Array(data[(data.startIndex + offset)..<(data.startIndex + offset + count)])
    }

    func starts(with prefix: [UInt8], at offset: Int = 0) -> Bool {
        bytes(at: offset, count: prefix.count) == prefix
    }

    func ascii(at offset: Int, count: Int) -> String? {
        bytes(at: offset, count: count).map { String(decoding: $0, as: UTF8.self) }
    }

    func uint16BE(at offset: Int) -> Int? { number(at: offset, count: 2, bigEndian: true) }
    func uint16LE(at offset: Int) -> Int? { number(at: offset, count: 2, bigEndian: false) }
    func uint24LE(at offset: Int) -> Int? { number(at: offset, count: 3, bigEndian: false) }
    func uint32BE(at offset: Int) -> Int? { number(at: offset, count: 4, bigEndian: true) }
    func uint32LE(at offset: Int) -> Int? { number(at: offset, count: 4, bigEndian: false) }

    private func number(at offset: Int, count: Int, bigEndian: Bool) -> Int? {
        guard let bytes = bytes(at: offset, count: count) else { return nil }
        return (bigEndian ? bytes : bytes.reversed()).reduce(0) { $0 << 8 | Int($1) }
    }
}
