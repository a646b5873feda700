import Foundation
import Testing
import TestSupport

/// The app in a real xterm with sixel graphics (`-ti vt340`) on a virtual X display: the screen is
/// read back as pixels, and the preview's rectangle must hold the photo, then nothing of it.
@Suite("Sixel pictures in xterm", .serialized)
struct XtermSixelTests {
    /// Where the list preview's picture goes at 100x30 (columns 57 to 98, rows 11 to 26), in
    /// pixels of a screenshot of the xterm (cells measured from its window: 2-pixel borders).
    struct PreviewArea {
        let left: Int, top: Int, right: Int, bottom: Int

        /// nil until the xterm's window shows.
        init?(_ shot: VirtualDisplay.Screenshot) {
            // The xterm's window is the light area from the top left; the root window around it is
            // black, far wider than any glyph's stroke or the reversed status line is tall.
            func isDark(_ x: Int, _ y: Int) -> Bool { shot.rgb(x: x, y: y).red < 20 && shot.rgb(x: x, y: y).green < 20 }
            let width = (5..<(shot.width - 60)).first { x in (x..<(x + 60)).allSatisfy { isDark($0, 5) } } ?? 0
            let height = (5..<(shot.height - 60)).first { y in (y..<(y + 60)).allSatisfy { isDark(5, $0) } } ?? 0
            guard width > 400, height > 200 else { return nil }
            let cellWidth = Double(width - 4) / 100, cellHeight = Double(height - 4) / 30
            left = 2 + Int(57 * cellWidth)
            right = 2 + Int(99 * cellWidth)
            top = 2 + Int(11 * cellHeight)
            bottom = 2 + Int(27 * cellHeight)
        }

        /// The pixels of the source's colours: the test photo's blue is 128 everywhere, unlike
        /// the terminal's white background and black text.
        func photoPixels(_ shot: VirtualDisplay.Screenshot) -> [(x: Int, y: Int, rgb: (red: Int, green: Int, blue: Int))] {
            var found: [(Int, Int, (Int, Int, Int))] = []
            for y in top..<bottom {
                for x in left..<right {
                    let pixel = shot.rgb(x: x, y: y)
                    if abs(pixel.blue - 128) < 24 { found.append((x, y, pixel)) }
                }
            }
            return found
        }

        var count: Int { (right - left) * (bottom - top) }
    }

    @Test("the preview holds the photo in its colours; a note without an image leaves it empty")
    func photoShownThenGone() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let png = try folder.writeImage(named: "gradient.png", width: 400, height: 300)
        for (title, image) in [("Plain", [String]()), ("Photo", [png.path])] {
            #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", title, "--body", "text"] + image.flatMap { ["--image", $0] }).exitCode == 0)
        }
        let display = try VirtualDisplay(xtermArguments: ["-ti", "vt340", "-geometry", "100x30", "-fa", "DejaVu Sans Mono", "-fs", "10",
                                                          "-e", BuiltExecutable.url.path, "--store", store.path],
                                         environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        let shown = try display.waitUntil("the photo in the preview") { shot in
            guard let area = PreviewArea(shot) else { return false }
            return area.photoPixels(shot).count > area.count / 2
        }
        let area = try #require(PreviewArea(shown))
        let photo = area.photoPixels(shown)
        // Colours close to the source: red grows to the right and green downwards across the picture.
        let minX = photo.map(\.x).min() ?? 0, maxX = photo.map(\.x).max() ?? 1, minY = photo.map(\.y).min() ?? 0, maxY = photo.map(\.y).max() ?? 1
        let errors = photo.map { pixel in
            let red = Double(pixel.x - minX) / Double(max(1, maxX - minX)) * 255, green = Double(pixel.y - minY) / Double(max(1, maxY - minY)) * 255
            return (abs(Double(pixel.rgb.red) - red) + abs(Double(pixel.rgb.green) - green)) / 2
        }
        #expect(errors.reduce(0, +) / Double(errors.count) < 24, "mean colour error \(errors.reduce(0, +) / Double(errors.count))")
        #expect(Double(maxX - minX) / Double(max(1, maxY - minY)) > 1.2, "the photo's 4:3 shape kept")

        try display.press("j")
        try display.waitUntil("the preview without the photo") { shot in
            (PreviewArea(shot)?.photoPixels(shot).count ?? .max) < area.count / 100
        }
    }
}
