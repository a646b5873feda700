import Foundation
import ManagedStore
import NotesTerminalUI
import UnCloudNotesKit

/// Issue 34's bounded key path: `p`, `s`, a tag filter and a title-only save, each timed from the
/// key to the painted screen, on a copy of the read store with the 10 MB note as its newest
/// note and every 1,000th note tagged. In process, as the terminal loop runs them (the key
/// handled, its store effects run, the frame read and drawn into cells); between keys the
/// background's answers (the rest of a list read again) are taken, untimed, as the loop takes
/// them while the user reads the screen. A fresh app per run.
enum KeyPaths {
    struct Result: Codable {
        var notes: Int
        var taggedNotes: Int
        /// `p` on a small note (the second), then `p` again: pinned, then unpinned.
        var pin: Stats
        /// The same on the 10 MB note, reported apart: SQLite writes a row whole, so a flag of
        /// that note reads and writes its 10 MB.
        var bigNotePin: Stats
        /// `s` twice: ordered by date modified, then created again.
        var sort: Stats
        /// Enter in the tag picker (the tag's notes listed), then Esc (all notes again).
        var tagFilter: Stats
        /// `t`: the picker open, every tag with its count (reported apart: it counts the tags' notes).
        var tagPicker: Stats
        /// Ctrl-S of a title-only change of a small note.
        var titleSave: Stats
        /// Ctrl-S of a title-only change of the 10 MB note, reported apart: SQLite writes its
        /// 10 MB row again for the title.
        var bigNoteTitleSave: Stats
    }

    static let tag = "keys"
    static let taggedEvery = 1_000
    static let bigNoteTitle = "A 10 MB note"

    static func measure(storeAt readStore: URL, notes: Int, runs: Int, scratch: URL) throws -> Result {
        let url = scratch.appendingPathComponent("keys.sqlite")
        try DiskSync.syncedCopy(of: readStore, at: url)
        // The copy is scratch: removing it is best effort.
        defer { StoreFiles(url: url).remove() }
        let stack = try UnCloudNotesStack(storeURL: url)
        let book = try stack.open()
        let tagged = try prepare(book)
        var log = RunLog()
        for run in 0..<runs {
            let app = NotesApp(book: book, storePath: url.path, versionLabel: stack.versionLabel, colors: ColorSupport(depth: .indexed256))
            let keys = KeyDriver(app: app, runner: NotesEffectRunner(book: book))
            keys.launch()
            for _ in 0..<2 { log.add(keys.timed(.character("p")), to: "bigNotePin") }
            // The small note: pinned it lists first, then unpinned it goes back to second.
            keys.press(.down)
            log.add(keys.timed(.character("p")), to: "pin")
            log.add(keys.timed(.character("p")), to: "pin")
            keys.press(.home)
            for _ in 0..<2 { log.add(keys.timed(.character("s")), to: "sort") }
            log.add(keys.timed(.character("t")), to: "tagPicker")
            log.add(keys.timed(.enter), to: "tagFilter")
            log.add(keys.timed(.escape), to: "tagFilter")
            // A small note's title, then the big note's: the editor opened and the title typed untimed.
            for (target, name) in [(1, "titleSave"), (0, "bigNoteTitleSave")] {
                keys.press(.home)
                for _ in 0..<target { keys.press(.down) }
                keys.press(.character("e"))
                keys.press(.character(Character("\(run % 10)")))
                log.add(keys.timed(.control("s")), to: name)
                keys.press(.escape)
            }
            try check(book, app: app)
        }
        return Result(notes: notes, taggedNotes: tagged, pin: log.stats("pin"), bigNotePin: log.stats("bigNotePin"), sort: log.stats("sort"), tagFilter: log.stats("tagFilter"),
                      tagPicker: log.stats("tagPicker"), titleSave: log.stats("titleSave"), bigNoteTitleSave: log.stats("bigNoteTitleSave"))
    }

    /// The 10 MB note as the newest (when the store lacks it), the tag on every 1,000th note, and
    /// the search index built, through the app's own book. - Returns: how many notes are tagged.
    private static func prepare(_ book: NoteBook) throws -> Int {
        let ids = try book.noteIDs()
        if try book.rows(of: Array(ids.prefix(1))).first?.title != bigNoteTitle {
            _ = try book.add(NoteDraft(title: bigNoteTitle, body: BigNotePaths.body()), date: Date())
        }
        let tagged = stride(from: 1, to: ids.count, by: taggedEvery).map { ids[$0] }
        for id in tagged { try book.changeTags(of: id, adding: [tag]) }
        try book.prepareSearchIndex()
        return tagged.count
    }

    /// The keys did what they are timed for: the order and the filter are back, the big note is
    /// first and unpinned, and both saves took their titles.
    private static func check(_ book: NoteBook, app: NotesApp) throws {
        let first = try book.rows(of: book.noteIDs(page: ListPage(limit: 2)))
        guard first.count == 2, first[0].title.hasPrefix(bigNoteTitle), !first[0].pinned, first[0].title != bigNoteTitle,
              first[1].title.count > 0 else {
            throw BenchError("the keys did not pin, sort, filter and save as timed: the list starts with \(first.map(\.title))")
        }
    }
}

/// Presses keys in an app as the terminal loop does, timing them from the key to the painted
/// screen, and takes the background's answers between keys.
private struct KeyDriver {
    let app: NotesApp
    let runner: NotesEffectRunner

    /// Handles the key, runs its effects, and paints: the time the user waits.
    func timed(_ key: Key) -> Double {
        let start = DispatchTime.now()
        press(key)
        let elapsed = seconds(since: start)
        settle()
        return elapsed
    }

    func press(_ key: Key) {
        _ = runner.perform(app.handle(key), on: app)
        _ = runner.render(app, width: BigNotePaths.screen.width, height: BigNotePaths.screen.height)
    }

    /// Opens the app's first screen, then waits for the rest of the list, as the user sees it.
    func launch() {
        runner.perform(app.launch(), on: app)
        settle()
    }

    /// Takes what the background finished (the rest of a list read again), as the loop does
    /// while the user looks at the screen.
    func settle() {
        _ = runner.render(app, width: BigNotePaths.screen.width, height: BigNotePaths.screen.height)
        while app.isWaitingForBackgroundWork {
            usleep(1_000)
            if let effects = app.receiveBackgroundWork() {
                _ = runner.perform(effects, on: app)
                _ = runner.render(app, width: BigNotePaths.screen.width, height: BigNotePaths.screen.height)
            }
        }
    }
}
