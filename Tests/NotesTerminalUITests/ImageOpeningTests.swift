import Foundation
import NotesTerminalUI
import Testing
import TestSupport
import UnCloudNotesKit

/// `o` in a note: the selected image, handed to the system's viewer as a private file.
@Suite("Opening an image")
struct ImageOpeningTests {
    @Test("o asks to open the selected image, with its bytes and a name saying which it is")
    func keyAsksForTheSelectedImage() throws {
        let harness = try AppHarness()
        let trip = try #require(try harness.book.noteIDs().first)
        let second = try #require(try harness.book.snapshot(of: trip).attachments.last?.imageData)
        harness.press(.enter, .right)
        #expect(harness.press(.character("o")) == [.openImage(second, name: "note-\(trip)-image-2.png")])
        // A note without images has nothing to open.
        harness.press(.escape, .end, .enter)
        #expect(harness.press(.character("o")).isEmpty)
    }

    @Test("the viewer gets a private copy of the image; without xdg-open the message says what to do")
    func viewer() throws {
        let folder = try TemporaryFolder()
        let received = folder.url.appendingPathComponent("received")
        let fakeOpener = folder.url.appendingPathComponent("xdg-open")
        try "#!/bin/sh\ncp \"$1\" '\(received.path).partial' && stat -c %a \"$1\" > '\(received.path).mode' && mv '\(received.path).partial' '\(received.path)'\n"
            .write(to: fakeOpener, atomically: true, encoding: .utf8)
        chmod(fakeOpener.path, 0o755)
        let image = TestImages.encoded(width: 8, height: 8)
        let message = ImageViewer.open(image, named: "note-1-image-1.png", environment: ["PATH": folder.url.path])
        #expect(message == "opening note-1-image-1.png with xdg-open")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: received.path), Date() < deadline { usleep(10_000) }
        #expect(try Data(contentsOf: received) == image)
        #expect(try String(contentsOf: URL(fileURLWithPath: received.path + ".mode"), encoding: .utf8) == "600\n")
        let missing = ImageViewer.open(image, named: "x.png", environment: ["PATH": folder.url.appendingPathComponent("none").path])
        #expect(missing.contains("xdg-open is not installed"))
    }
}
