import Foundation
import ManagedStore
import NotesTerminalUI
import TestSupport
import UnCloudNotesKit

/// A `NotesApp` on a temporary store, with fixed dates written in a fixed pattern, so screens render
/// the same on every machine.
struct AppHarness {
    let folder: TemporaryFolder
    let stack: UnCloudNotesStack
    let book: NoteBook
    let app: NotesApp
    /// Carries out the store effects keys return, as the terminal loop does.
    let runner: NotesEffectRunner
    /// Background searches and index builds wait here until the test runs them.
    let searches = ManualExecutor()
    let indexing = ManualExecutor()
    let previewing = ManualExecutor()
    let syncing = ManualExecutor()

    static let png = TestImages.encoded(width: 64, height: 32, format: "png")

    /// Dates as "2026-05-12 06:13" in UTC, the same with every toolchain.
    static let dates = DateText { date in
        let style = Date.VerbatimFormatStyle(
            format: "\(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits)",
            timeZone: .gmt, calendar: Calendar(identifier: .gregorian))
        return date.formatted(style)
    }

    /// - Parameters:
    ///   - notes: title, body and number of images of each note, oldest first.
    ///   - options: how the store is opened (a test counting statements sets `sqlRecorder`).
    init(version: String = "v4", notes: [(String, String, Int)] = AppHarness.sampleNotes,
         colors: ColorSupport = ColorSupport(depth: .none), options: StoreOptions = StoreOptions()) throws {
        // Screens draw as in a UTF-8 terminal whichever suite ran first (the app sets the
        // locale at start; a test process has the C locale until some test sets it).
        DisplayWidth.configureLocale()
        folder = try TemporaryFolder()
        stack = try UnCloudNotesStack(storeURL: folder.url.appendingPathComponent("notes.sqlite"), versionName: version, options: options)
        book = try stack.open()
        let image = try NoteImage(validating: Self.png)
        let imagesPerNote = switch book.capabilities.images {
        case .none: 0
        case .one: 1
        case .several: Int.max
        }
        for (index, note) in notes.enumerated() {
            let images = Array(repeating: image, count: min(note.2, imagesPerNote))
            try book.add(NoteDraft(title: note.0, body: note.1), images: images,
                         date: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index) * 86_400))
        }
        app = NotesApp(book: book, storePath: "/home/ann/.local/share/uncloudnotes/UnCloudNotesDataModel.sqlite",
                           versionLabel: stack.versionLabel, colors: colors, dates: Self.dates, searchExecutor: searches, indexExecutor: indexing,
                           previewExecutor: previewing, syncExecutor: syncing)
        runner = NotesEffectRunner(book: book)
        runner.perform(app.launch(), on: app)
        runner.perform(app.receive(.frameDrawn), on: app)
    }

    static let sampleNotes: [(String, String, Int)] = [
        ("Groceries", "milk, eggs, bread", 0),
        ("笔记 — 中文标题", "今天天气很好。我们去公园散步吧。这是一段很长的中文文字，用来检查换行是否按照显示宽度进行。", 0),
        ("Party 🎉", "Cake 🎂 at eight", 1),
        ("Trip", "Pack the tent, the stove and the maps. Leave early on Saturday.", 2),
    ]

    /// Sends keys one by one, the runner carrying out their store effects.
    /// - Returns: what the last key leaves for the terminal (quitting, the external editor).
    @discardableResult
    func press(_ keys: Key...) -> [NotesEffect] {
        keys.reduce([]) { _, key in runner.perform(app.handle(key), on: app) }
    }

    func type(_ text: String) {
        for character in text { _ = runner.perform(app.handle(.character(character)), on: app) }
    }

    /// What the terminal loop does when the user is idle. - Returns: whether the store had changed.
    func catchUp() -> Bool {
        let effects = app.catchUpWithStore()
        guard effects.count == 1, let checked = runner.run(effects[0]), case .storeChecked(.success(let check)) = checked else { return false }
        runner.perform(app.receive(checked), on: app)
        return check.changed
    }

    /// Lets the index build, every search and preview finish, and the app take their answers.
    func finishBackgroundWork() {
        indexing.runAll()
        searches.runAll()
        previewing.runAll()
        takeBackgroundWork()
    }

    /// Takes what the background finished through the app's `receive`, its effects carried out,
    /// as the terminal loop does; whether anything arrived.
    @discardableResult
    func takeBackgroundWork() -> Bool {
        guard let effects = app.receiveBackgroundWork() else { return false }
        _ = runner.perform(effects, on: app)
        return true
    }

    /// One frame at a size, as the terminal loop draws it: the reads the screen needs run first.
    func render(width: Int, height: Int) -> CellBuffer {
        runner.render(app, width: width, height: height)
    }

    /// The screen once the previews it asks for are made.
    func settledRender(width: Int, height: Int) -> CellBuffer {
        _ = render(width: width, height: height)
        finishBackgroundWork()
        return render(width: width, height: height)
    }

    func screen(_ width: Int = 80, _ height: Int = 24) -> String {
        render(width: width, height: height).lines.joined(separator: "\n")
    }

    /// A second connection to the store, as another process would have: its saves are what
    /// `catchUp` notices.
    func otherBook() throws -> NoteBook {
        try UnCloudNotesStack(storeURL: stack.storeURL, versionName: book.capabilities.version).open()
    }

    func titles() throws -> [String] {
        try book.rows(of: book.noteIDs()).map(\.title)
    }
}

/// Golden text files in Tests/NotesTerminalUITests/Snapshots. `UPDATE_SNAPSHOTS=1` rewrites them
/// (then read the diff before committing). A mismatch prints the differing lines.
enum Snapshot {
    static let folder = SharedFixtures.packageRoot.appendingPathComponent("Tests/NotesTerminalUITests/Snapshots")

    /// Compares a screen with `<name>.txt` (its text), `<name>.styles.txt` (one hexadecimal digit
    /// per cell: the `CellStyle` bits, 1 bold, 2 reverse, 4 dim, 8 underline) and
    /// `<name>.colors.txt` (the rows with coloured text, one character per cell: `.` none, the
    /// palette index 0-f, `p` a higher one, `t` true colour; then each image). Image previews are compared by their area and whether they are in
    /// colour, never by the glyphs libchafa chose: their cells show as `░`.
    static func matches(_ buffer: CellBuffer, named name: String) throws -> Bool {
        let text = try matches(textLines(of: buffer).joined(separator: "\n"), named: name)
        let styles = try matches(styleLines(of: buffer).joined(separator: "\n"), named: name + ".styles")
        let colors = try matches(colorLines(of: buffer).joined(separator: "\n"), named: name + ".colors")
        return text && styles && colors
    }

    private static func isImage(_ buffer: CellBuffer, _ row: Int, _ column: Int) -> Bool {
        buffer.imageAreas.contains { $0.contains(row: row, column: column) }
    }

    /// One line per row, trailing blanks removed; `mark` gives each cell's character, nil to skip it.
    private static func lines(of buffer: CellBuffer, blank: Character, _ mark: (Int, Int) -> Character?) -> [String] {
        (0..<buffer.height).map { row in
            var line = String((0..<buffer.width).compactMap { mark(row, $0) })
            while line.last == blank { line.removeLast() }
            return line
        }
    }

    static func textLines(of buffer: CellBuffer) -> [String] {
        lines(of: buffer, blank: " ") { row, column in
            if isImage(buffer, row, column) { return "░" }
            if case .character(let character) = buffer[row, column].content { return character }
            return nil
        }
    }

    static func styleLines(of buffer: CellBuffer) -> [String] {
        lines(of: buffer, blank: "0") { row, column in
            isImage(buffer, row, column) ? "0" : Character(String(buffer[row, column].style.rawValue, radix: 16))
        }
    }

    /// The rows with coloured text, then one line per image: its area and whether it has colour.
    static func colorLines(of buffer: CellBuffer) -> [String] {
        func colorClass(_ color: TerminalColor?) -> Character? {
            switch color {
            case nil: nil
            case .palette(let index)?: index < 16 ? Character(String(index, radix: 16)) : "p"
            case .rgb?: "t"
            }
        }
        let cells = lines(of: buffer, blank: ".") { row, column in
            let cell = buffer[row, column]
            return isImage(buffer, row, column) ? "." : colorClass(cell.foreground) ?? colorClass(cell.background) ?? "."
        }.enumerated().filter { !$0.element.isEmpty }.map { "row \($0.offset): \($0.element)" }
        let images = buffer.imageAreas.map { area in
            let colored = (area.top..<area.bottom).contains { row in
                (area.left..<area.right).contains { buffer[row, $0].foreground != nil || buffer[row, $0].background != nil }
            }
            return "image at row \(area.top), column \(area.left): \(area.width)x\(area.height), \(colored ? "in colour" : "without colour")"
        }
        return cells + images
    }

    static func matches(_ text: String, named name: String) throws -> Bool {
        let file = folder.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] == "1" {
            try Data((text + "\n").utf8).write(to: file)
            return true
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            print("snapshot \(name): no file \(file.path); run with UPDATE_SNAPSHOTS=1")
            return false
        }
        guard expected != text + "\n" else { return true }
        let wanted = expected.components(separatedBy: "\n"), got = (text + "\n").components(separatedBy: "\n")
        for index in 0..<max(wanted.count, got.count) {
            let old = index < wanted.count ? wanted[index] : "", new = index < got.count ? got[index] : ""
            if old != new { print("snapshot \(name) line \(index + 1):\n  - \(old)\n  + \(new)") }
        }
        return false
    }
}
