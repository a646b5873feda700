import Foundation
import Testing
import TestSupport

/// A store of one note, "Photo", holding a 400x300 picture and an 80-line body of lines of
/// different lengths (a shorter line replacing a longer one is cleared to its end): the wide
/// detail view then scrolls text beside a picture, which the picture tests watch.
func photoBesideLongBody(in folder: TemporaryFolder) throws -> URL {
    let store = folder.url.appendingPathComponent("notes.sqlite")
    let png = try folder.writeImage(named: "gradient.png", width: 400, height: 300)
    let body = (1...80).map { "line \($0)" + String(repeating: " of a long body", count: $0 % 4) }.joined(separator: "\n")
    #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "Photo", "--body", body, "--image", png.path]).exitCode == 0)
    return store
}
