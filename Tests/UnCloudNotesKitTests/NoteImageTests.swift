import Foundation
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("Note images through gdk-pixbuf")
struct NoteImageTests {
    @Test("size from the header, for PNG and JPEG", arguments: ["png", "jpeg"])
    func pixelSize(format: String) throws {
        let image = try NoteImage(validating: TestImages.encoded(width: 123, height: 45, format: format))
        #expect(try image.pixelSize() == (123, 45))
        #expect(image.formatName == format)
    }

    @Test("the size is read from the header alone: a truncated file still tells it")
    func sizeFromHeaderOnly() throws {
        let png = TestImages.encoded(width: 300, height: 200, format: "png")
        let truncated = NoteImage(storedData: png.prefix(100))
        #expect(try truncated.pixelSize() == (300, 200))
        #expect(throws: ImageError.self) { try NoteImage(validating: truncated.data) }
    }

    @Test("decoding scales down to fit a box, keeping the aspect ratio")
    func scaledDecode() throws {
        let image = try NoteImage(validating: TestImages.encoded(width: 400, height: 200, format: "jpeg"))
        let decoded = try image.decoded(fittingWidth: 100, height: 100)
        #expect(decoded.width == 100 && decoded.height == 50)
        #expect(decoded.pixels.count >= decoded.rowStride * (decoded.height - 1) + decoded.width * 4)
        let full = try image.decoded()
        #expect(full.width == 400 && full.height == 200)
    }

    @Test("decoding to cover a box: a JPEG only as small as its DCT scaling makes it, never below the fitted size; other formats whole")
    func coveringDecode() throws {
        let jpeg = try NoteImage(validating: TestImages.encoded(width: 800, height: 600, format: "jpeg"))
        // Fitted to 150x150 it would be 150x112: 1/4 (200x150) is the smallest scale not below that.
        let quarter = try jpeg.decoded(coveringWidth: 150, height: 150)
        #expect((quarter.width, quarter.height) == (200, 150))
        let eighth = try jpeg.decoded(coveringWidth: 100, height: 100)
        #expect((eighth.width, eighth.height) == (100, 75))
        let whole = try jpeg.decoded(coveringWidth: 900, height: 900)
        #expect((whole.width, whole.height) == (800, 600))
        let png = try NoteImage(validating: TestImages.encoded(width: 800, height: 600, format: "png"))
        let unscaled = try png.decoded(coveringWidth: 150, height: 150)
        #expect((unscaled.width, unscaled.height) == (800, 600))
        // The gradient's corners survive: red grows to the right, green downwards.
        let last = (quarter.height - 1) * quarter.rowStride + (quarter.width - 1) * 4
        #expect(quarter.pixels[0] < 20 && quarter.pixels[1] < 20 && quarter.pixels[last] > 235 && quarter.pixels[last + 1] > 235)
    }

    @Test("bytes that are not a decodable image are refused", arguments: [
        Data(), Data("just text, not an image".utf8), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]),
        TestImages.encoded(width: 200, height: 200, format: "png").prefix(300),
        TestImages.encoded(width: 200, height: 200, format: "jpeg").prefix(600),
    ])
    func refused(data: Data) {
        #expect(throws: ImageError.self) { try NoteImage(validating: data) }
    }

    @Test("a missing file and a folder are refused with the path, each named for what it is")
    func missingFile() throws {
        let error = try #require(throws: ImageError.self) { try NoteImage(contentsOf: URL(fileURLWithPath: "/nonexistent/cat.png")) }
        #expect(error == .unreadableFile(path: "/nonexistent/cat.png", reason: .cannotRead(.missing(path: "/nonexistent/cat.png"))))
        #expect(error.description == "/nonexistent/cat.png: no such file")
        let folder = try TemporaryFolder()
        let folderError = try #require(throws: ImageError.self) { try NoteImage(contentsOf: folder.url) }
        #expect(folderError == .unreadableFile(path: folder.url.path, reason: .cannotRead(.folder(path: folder.url.path))))
    }
}
