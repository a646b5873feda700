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

        /// The whole screenshot.
        init(whole shot: VirtualDisplay.Screenshot) {
            (left, top, right, bottom) = (0, 0, shot.width, shot.height)
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

    /// A store of two notes: "Photo" (newest, selected at launch) holding a 400x300 gradient, and "Plain".
    func store(in folder: TemporaryFolder) throws -> URL {
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let png = try folder.writeImage(named: "gradient.png", width: 400, height: 300)
        for (title, image) in [("Plain", [String]()), ("Photo", [png.path])] {
            #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", title, "--body", "text"] + image.flatMap { ["--image", $0] }).exitCode == 0)
        }
        return store
    }

    static let xterm = ["-ti", "vt340", "-geometry", "100x30", "-fa", "DejaVu Sans Mono", "-fs", "10", "-e"]

    @Test("the preview holds the photo in its colours; a note without an image leaves it empty")
    func photoShownThenGone() throws {
        let folder = try TemporaryFolder()
        let store = try store(in: folder)
        let display = try VirtualDisplay(xtermArguments: Self.xterm + [BuiltExecutable.url.path, "--store", store.path],
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

    /// tmux does not know what passthrough drew, and sends the outer terminal only the cells that
    /// changed in its own copy of the screen: blank cells that stay blank would keep the pixels.
    @Test("inside tmux with passthrough: the photo shows, and moving to a note without an image leaves the rectangle empty")
    func photoGoneInsideTmux() throws {
        let folder = try TemporaryFolder()
        let store = try store(in: folder)
        let configuration = folder.url.appendingPathComponent("tmux.conf")
        // No status line (the pane is the whole 100x30 window); the server ends with its xterm.
        try Data("set -g status off\nset -g allow-passthrough on\nset -g destroy-unattached on\n".utf8).write(to: configuration)
        let socket = "uncloudnotes-sixel-\(UUID().uuidString.prefix(8))"
        defer { _ = try? SpawnedProcess.run(["tmux", "-L", socket, "kill-server"]) }
        let display = try VirtualDisplay(xtermArguments: Self.xterm + ["tmux", "-L", socket, "-f", configuration.path, "new-session",
                                                                      "\(BuiltExecutable.url.path) --images sixel --store \(store.path)"],
                                         environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        let shown = try display.waitUntil("the photo in the preview") { shot in
            guard let area = PreviewArea(shot) else { return false }
            return area.photoPixels(shot).count > area.count / 2
        }
        let area = try #require(PreviewArea(shown))
        // Whole: text tmux sent after the picture (clearing "(loading the image)") would cut a hole in it.
        let photo = area.photoPixels(shown)
        let width = (photo.map(\.x).max() ?? 0) - (photo.map(\.x).min() ?? 0) + 1, height = (photo.map(\.y).max() ?? 0) - (photo.map(\.y).min() ?? 0) + 1
        #expect(Double(photo.count) / Double(width * height) > 0.99, "\(photo.count) photo pixels in its \(width)x\(height) bounds")
        try display.press("j")
        // Nowhere on the screen: a picture tmux let the terminal draw elsewhere would stay there.
        let screen = PreviewArea(whole: shown)
        try display.waitUntil("the screen without the photo") { shot in
            // Grey pixels of anti-aliased text can have a blue of 128 too; the photo's are coloured.
            screen.photoPixels(shot).filter { abs($0.rgb.red - $0.rgb.green) > 24 || abs($0.rgb.red - $0.rgb.blue) > 24 }.count < area.count / 100
        }
    }

    /// The photo's pixels anywhere on the screen: coloured (text's anti-aliased greys can have a
    /// blue of 128 too) with the test photo's blue.
    static func photoPixels(_ shot: VirtualDisplay.Screenshot) -> [(x: Int, y: Int)] {
        var found: [(x: Int, y: Int)] = []
        for y in 0..<shot.height {
            for x in 0..<shot.width {
                let pixel = shot.rgb(x: x, y: y)
                if abs(pixel.blue - 128) < 24, abs(pixel.red - pixel.green) > 24 || abs(pixel.red - pixel.blue) > 24 { found.append((x, y)) }
            }
        }
        return found
    }

    /// As the body scrolls beside the picture, ncurses (left to itself) scrolls the rows it shares
    /// with it with a scrolling region, which moves the pixels too, and clears lines to their end
    /// through it; the picture is not drawn again then (no flicker), so neither may happen.
    @Test("wide detail view: the body scrolls beside the picture, which stays whole")
    func pictureWholeWhileBodyScrolls() throws {
        let folder = try TemporaryFolder()
        let store = try photoBesideLongBody(in: folder)
        let log = folder.url.appendingPathComponent("xterm.log")
        let display = try VirtualDisplay(xtermArguments: ["-l", "-lf", log.path, "-ti", "vt340", "-geometry", "120x30", "-fa", "DejaVu Sans Mono", "-fs", "10",
                                                          "-e", BuiltExecutable.url.path, "--store", store.path],
                                         environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        try display.waitUntil("the list's photo") { Self.photoPixels($0).count > 20_000 }
        try display.press("Return")
        let opened = try display.waitUntil("the detail view's photo, larger") { Self.photoPixels($0).count > 40_000 }
        let before = Self.photoPixels(opened).count
        for _ in 0..<12 { try display.press("j") }
        let deadline = Date().addingTimeInterval(20)
        while !String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self).contains("line 13 of a long body") {
            try #require(Date() < deadline, "the body never scrolled to line 13")
            usleep(50_000)
        }
        let after = Self.photoPixels(try display.screenshot()).count
        #expect(Double(after) >= Double(before) * 0.99, "photo pixels: \(before) before scrolling, \(after) after")
    }
}
