import Foundation
import NotesTerminalUI
import UnCloudNotesKit

/// Issue 26's time to picture: a camera-sized JPEG in a note, selected in the list, until its
/// picture is encoded at the preview's pixel size and in the frame to draw, per protocol. In
/// process, as the terminal loop runs it: the key handled and painted (timed apart: keys never
/// wait for a picture), then the background's previews taken, and the frame drawn when they arrived, until it
/// holds the picture. A fresh app per run, so nothing comes from the preview cache.
enum PicturePaths {
    struct Result: Codable {
        var width: Int
        var height: Int
        var imageBytes: Int
        var protocols: [Timing]
    }

    struct Timing: Codable {
        var name: String
        /// From the key that selects the note to the frame holding its picture.
        var toPicture: Stats
        /// The key itself, handled and painted while the picture is made in the background.
        var key: Stats
        var pictureBytes: Int
        var pictureWidth: Int
        var pictureHeight: Int
    }

    static let screen = (width: 120, height: 40)
    /// A common cell size (xterm and kitty at 10 to 11 points).
    static let cell = PixelSize(width: 10, height: 20)

    static func measure(in folder: URL, width: Int, height: Int, runs: Int) throws -> Result {
        let jpeg = StoreGenerator.encoded(seed: 26, format: "jpeg", width: width, height: height)
        let url = folder.appendingPathComponent("picture.sqlite")
        let stack = try UnCloudNotesStack(storeURL: url)
        let book = try stack.open()
        _ = try book.add(NoteDraft(title: "A photo", body: "\(width)x\(height)"), images: [try NoteImage(validating: jpeg)], date: Date(timeIntervalSinceNow: -60))
        _ = try book.add(NoteDraft(title: "Text only", body: "no image"), date: Date())
        var timings: [Timing] = []
        var log = RunLog()
        var last: [PixelProtocol: EncodedPicture] = [:]
        for _ in 0..<runs {
            for kind in [PixelProtocol.kitty, .sixel, .iterm2] {
                let (key, toPicture, picture) = try timeToPicture(book: book, stack: stack, kind: kind)
                log.add(key, to: "\(kind) key")
                log.add(toPicture, to: "\(kind) picture")
                last[kind] = picture
            }
        }
        for kind in [PixelProtocol.kitty, .sixel, .iterm2] {
            guard let picture = last[kind] else { continue }
            timings.append(Timing(name: kind.rawValue, toPicture: log.stats("\(kind) picture"), key: log.stats("\(kind) key"), pictureBytes: picture.bytes.count,
                                  pictureWidth: picture.pixelSize.width, pictureHeight: picture.pixelSize.height))
        }
        return Result(width: width, height: height, imageBytes: jpeg.count, protocols: timings)
    }

    private static func timeToPicture(book: NoteBook, stack: UnCloudNotesStack, kind: PixelProtocol) throws -> (key: Double, toPicture: Double, EncodedPicture) {
        let app = NotesApp(book: book, storePath: stack.storeURL.path, versionLabel: stack.versionLabel, colors: ColorSupport(depth: .direct),
                           graphics: PreviewGraphics(kind: .pixels(kind), cellPixels: cell))
        let runner = NotesEffectRunner(book: book)
        runner.perform(app.launch(), on: app)
        _ = runner.render(app, width: screen.width, height: screen.height)
        let start = DispatchTime.now()
        _ = runner.perform(app.handle(.down), on: app)
        guard !runner.render(app, width: screen.width, height: screen.height).lines.joined().isEmpty else { throw BenchError("nothing painted") }
        let key = seconds(since: start)
        while true {
            // A frame is drawn when the background delivered something, as the terminal loop draws
            // after a wake: drawing in a busy loop would take a core from the picture's making.
            if let effects = app.receiveBackgroundWork() {
                _ = runner.perform(effects, on: app)
                if let placed = runner.render(app, width: screen.width, height: screen.height).pictures.first {
                    return (key, seconds(since: start), placed.picture)
                }
            }
            guard app.isWaitingForBackgroundWork else { throw BenchError("the \(kind) picture was never made") }
            usleep(200)
        }
    }
}
