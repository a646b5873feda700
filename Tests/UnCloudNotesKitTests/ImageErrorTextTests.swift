import Foundation
import Testing
import UnCloudNotesKit

/// The words of `ImageError`'s broken, rendering and file reasons, made from cases in one place:
/// each must read exactly as the free text it replaced (issue #34), since users read it.
@Suite("Image error text")
struct ImageErrorTextTests {
    @Test("a broken image reads as the words it always had", arguments: [
        (ImageError.BrokenReason.noSize(.png), "the PNG image is truncated or broken (no IHDR header)"),
        (.noSize(.jpeg), "the JPEG image is truncated or broken (no frame header with its size)"),
        (.noSize(.gif), "the GIF image is truncated (no screen size)"),
        (.noSize(.webp), "the WebP image is truncated or broken (no size in its first chunk)"),
        (.impossibleSize(.gif, width: 0, height: 7), "the GIF image claims a size of 0x7 pixels"),
        (.noSizeFound(byteCount: 12), "not an image gdk-pixbuf can read (no size found in 12 bytes)"),
        (.noPNGEnd, "the PNG image is truncated (no IEND chunk at its end)"),
        (.noJPEGEnd, "the JPEG image is truncated (no end-of-image marker)"),
        (.decodedToNothing, "the image decoded to nothing"),
        (.decoder(message: "Bogus Huffman table definition"), "Bogus Huffman table definition"),
        (.unreadableByDecoder, "not an image gdk-pixbuf can read"),
        (.incomplete, "the image data is incomplete or broken"),
    ])
    func broken(reason: ImageError.BrokenReason, text: String) {
        #expect(ImageError.broken(reason).description == text)
    }

    @Test("a rendering failure reads as the words it always had", arguments: [
        (ImageError.RenderingFailure.cannotConvertToRGBA, "cannot convert the image to RGBA"),
        (.noPixels, "the image has no pixels"),
        (.noRoom, "no room for the picture"),
        (.noCanvas, "libchafa could not make a canvas"),
        (.nothingPrinted, "libchafa printed nothing"),
        (.noTerminalSequences, "libchafa has no terminal sequences"),
        (.kittySequenceRefused, "libchafa refused the kitty sequence"),
    ])
    func rendering(failure: ImageError.RenderingFailure, text: String) {
        #expect(ImageError.rendering(failure).description == text)
    }

    @Test("an unreadable file reads as its path and the words it always had", arguments: [
        (ImageError.FileReason.cannotRead(.missing(path: "/p/cat.png")), "no such file"),
        (.cannotRead(.folder(path: "/p/cat.png")), "this is a folder, not a file"),
        (.cannotRead(.notAllowed(path: "/p/cat.png")), "you are not allowed to read it"),
        (.cannotRead(.unreadable(path: "/p/cat.png", errno: EIO)), "cannot read it (\(String(cString: strerror(EIO))))"),
        (.folderNotImageFile, "a folder, not an image file"),
    ])
    func unreadableFile(reason: ImageError.FileReason, text: String) {
        #expect(ImageError.unreadableFile(path: "/p/cat.png", reason: reason).description == "/p/cat.png: " + text)
    }
}
