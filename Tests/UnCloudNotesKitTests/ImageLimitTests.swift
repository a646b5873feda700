import Foundation
import Testing
import TestSupport
@testable import UnCloudNotesKit

@Suite("Image headers and limits: sizes read in Swift, bombs refused before decoding")
struct ImageLimitTests {
    @Test("format and size from the header of each accepted format", arguments: ["png", "jpeg"])
    func headerOfEncodedImages(format: String) throws {
        let header = try ImageHeader(TestImages.encoded(width: 321, height: 123, format: format))
        #expect(header == ImageHeader(format: format == "png" ? .png : .jpeg, width: 321, height: 123))
    }

    @Test("a GIF's size is its logical screen, and the GIF is accepted")
    func gif() throws {
        #expect(try ImageHeader(TestImages.gif(width: 300, height: 2)) == ImageHeader(format: .gif, width: 300, height: 2))
        #expect(try NoteImage(validating: TestImages.gif()).formatName == "gif")
    }

    @Test("WebP headers: lossy, lossless and extended", arguments: [
        ([UInt8]("VP8 ".utf8) + [0, 0, 0, 0, 0, 0, 0, 0x9D, 0x01, 0x2A, 0x90, 0x01, 0xC8, 0x00], 400, 200),
        ([UInt8]("VP8L".utf8) + [0, 0, 0, 0, 0x2F, 0x63, 0xC0, 0x18, 0x00], 100, 100),
        ([UInt8]("VP8X".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 0x7F, 0x1F, 0, 0x37, 0x18, 0], 8064, 6200),
    ])
    func webp(chunk: [UInt8], width: Int, height: Int) throws {
        let data = Data("RIFF".utf8) + Data([0, 0, 0, 0]) + Data("WEBP".utf8) + Data(chunk)
        #expect(try ImageHeader(data) == ImageHeader(format: .webp, width: width, height: height))
    }

    @Test("a real WebP made by gdk-pixbuf is accepted when its loader is installed",
          .enabled(if: ImageFormats.supported.contains(.webp), "no WebP loader for gdk-pixbuf (apt install webp-pixbuf-loader)"))
    func realWebP() throws {
        let image = try NoteImage(validating: TestImages.encoded(width: 50, height: 20, format: "webp"))
        #expect(try image.pixelSize() == (50, 20) && image.formatName == "webp")
    }

    @Test("a PNG claiming 30000x30000 pixels is refused from its header, naming the limit")
    func decompressionBomb() throws {
        let bomb = TestImages.pngBomb(width: 30000, height: 30000)
        #expect(bomb.count < 100)
        let error = try #require(throws: ImageError.self) { try NoteImage(validating: bomb) }
        #expect(error == .tooLarge(width: 30000, height: 30000, limitMegapixels: 50))
        #expect(error.description.contains("30000x30000 pixels, more than the limit of 50 megapixels"), "\(error)")
        #expect(try NoteImage(storedData: bomb).pixelSize() == (30000, 30000))
    }

    @Test("a 12-megapixel phone photo passes the limit")
    func phonePhoto() throws {
        let photo = try NoteImage(validating: TestImages.encoded(width: 4000, height: 3000, format: "jpeg"))
        #expect(try photo.pixelSize() == (4000, 3000))
    }

    @Test("truncated headers are refused with the format named, never read past the end", arguments: [
        (TestImages.encoded(width: 20, height: 20, format: "png").prefix(20), ImageHeader.Format.png),
        (TestImages.encoded(width: 20, height: 20, format: "jpeg").prefix(30), .jpeg),
        (TestImages.gif().prefix(8), .gif),
        (Data("RIFF\0\0\0\0WEBPVP8X".utf8), .webp),
    ])
    func truncated(data: Data, format: ImageHeader.Format) throws {
        let error = try #require(throws: ImageError.self) { try ImageHeader(data) }
        guard case .broken(.noSize(let found)) = error else {
            Issue.record("expected a header without its size, got \(error)")
            return
        }
        #expect(found == format, "\(error)")
    }

    @Test("a file that is not an image is named for what it is, with the supported formats", arguments: [
        (Data("%PDF-1.7\n%âãÏÓ".utf8), "it is a PDF document, not an image; supported: PNG, JPEG, GIF"),
        (Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]), "it is a ZIP archive"),
        (Data("BM".utf8) + Data(count: 60), "it is a BMP image, a format UnCloudNotes does not store"),
        (Data("just some words\n".utf8), "it is a text file, not an image"),
        (Data([0x00, 0xFF, 0x13, 0x37]), "it is a file of unknown type (4 bytes), not an image"),
    ])
    func notAnImage(data: Data, message: String) throws {
        let error = try #require(throws: ImageError.self) { try NoteImage(validating: data) }
        guard case .listingSupported(.notAnImage, _) = error else {
            Issue.record("expected a file that is not an image, got \(error)")
            return
        }
        #expect(error.description.hasPrefix(message), "\(error)")
    }
}
