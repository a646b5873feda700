import Foundation
import NotesTerminalUI
import UnCloudNotesKit

/// Issue 21's big note: keys and search typing in the app while a 10 MB note is on screen, on the
/// read paths' store with that note added as the newest, so the list opens on it. In process, as
/// the terminal loop runs them: each key handled, its store effects run, the frame read and drawn
/// into cells (ncurses then copies what changed).
enum BigNotePaths {
    struct Result: Codable {
        var notes: Int
        var bodyBytes: Int
        /// Every key's time, from the key to the painted screen, over all runs.
        var key: Stats
        /// The slowest key of each run.
        var keyWorst: Stats
        /// Opening the note in the editor (`e`), which turns the whole body into editable characters once.
        var editorOpen: Stats
        var searchQueries: [String]
        /// The slowest keystroke of each run while typing the queries (handled and painted; the
        /// search itself runs in the background).
        var searchKeyWorst: Stats
        /// From a query's last keystroke to every match on screen, per query and run.
        var searchSettled: Stats
    }

    static let bodyBytes = 10 << 20
    static let screen = (width: 120, height: 40)
    static let searchQueries = ["sit amet", "日本"]
    /// On the list with the note's preview beside it, then in the note, scrolling to its end and back.
    static let keys: [Key] = [.down, .up, .enter, .down, .down, .pageDown, .pageDown, .end, .up, .pageUp, .home, .end, .escape]
    /// In the editor, once open on the note: typing at its end and moving up through it.
    static let editorKeys: [Key] = [.tab, .character("a"), .character("b"), .pageUp, .pageUp, .up, .down, .character("c")]

    static func measure(storeAt url: URL, notes: Int, runs: Int) throws -> Result {
        let stack = try UnCloudNotesStack(storeURL: url)
        let book = try stack.open()
        _ = try book.add(NoteDraft(title: "A 10 MB note", body: body()), date: Date())
        // Searches answer from the index, as they do once the app has built it.
        try book.prepareSearchIndex()
        var log = RunLog()
        for _ in 0..<runs {
            let app = NotesApp(book: book, storePath: url.path, versionLabel: stack.versionLabel, colors: ColorSupport(depth: .indexed256))
            let runner = NotesEffectRunner(book: book)
            runner.perform(app.launch(), on: app)
            _ = runner.render(app, width: screen.width, height: screen.height)
            let press = { (key: Key) in
                timed {
                    _ = runner.perform(app.handle(key), on: app)
                    _ = runner.render(app, width: screen.width, height: screen.height)
                }
            }
            let keyTimes = keys.map(press)
            log.add(press(.character("e")), to: "editorOpen")
            let editorTimes = editorKeys.map(press)
            // Back to the list, discarding the draft, untimed.
            for key in [Key.escape, .character("y"), .escape] { _ = runner.perform(app.handle(key), on: app) }
            (keyTimes + editorTimes).forEach { log.add($0, to: "key") }
            log.add((keyTimes + editorTimes).max() ?? 0, to: "keyWorst")
            try typeSearches(app, runner: runner, into: &log)
        }
        return Result(notes: notes, bodyBytes: bodyBytes, key: log.stats("key"), keyWorst: log.stats("keyWorst"), editorOpen: log.stats("editorOpen"),
                      searchQueries: searchQueries,
                      searchKeyWorst: log.stats("searchKeyWorst"), searchSettled: log.stats("searchSettled"))
    }

    /// Types each query after `/`, a key at a time, then waits for its matches as the terminal
    /// loop does (taking what the background found, painting), and clears it with Esc (not
    /// timed: it reads the whole list again, which is no typing).
    private static func typeSearches(_ app: NotesApp, runner: NotesEffectRunner, into log: inout RunLog) throws {
        var worst = 0.0
        for query in searchQueries {
            let press = { (key: Key) in
                timed {
                    _ = runner.perform(app.handle(key), on: app)
                    _ = runner.perform(app.receiveBackgroundWork() ?? [], on: app)
                    _ = runner.render(app, width: screen.width, height: screen.height)
                }
            }
            worst = max(worst, press(.character("/")))
            for character in query { worst = max(worst, press(.character(character))) }
            let shown = runner.render(app, width: screen.width, height: screen.height).lines.joined(separator: "\n")
            guard shown.contains("Search: \(query)") else { throw BenchError("typing “\(query)” did not search; the screen shows:\n\(shown)") }
            let lastKey = DispatchTime.now()
            while app.isWaitingForBackgroundWork {
                usleep(1_000)
                _ = runner.perform(app.receiveBackgroundWork() ?? [], on: app)
                _ = runner.render(app, width: screen.width, height: screen.height)
            }
            log.add(seconds(since: lastKey), to: "searchSettled")
            _ = runner.perform(app.handle(.escape), on: app)
        }
        log.add(worst, to: "searchKeyWorst")
    }

    private static func timed(_ work: () -> Void) -> Double {
        let start = DispatchTime.now()
        work()
        return seconds(since: start)
    }

    /// Numbered paragraphs of about 600 bytes (Latin with accents and Japanese), to `bodyBytes`.
    static func body() -> String {
        let sentence = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, café naïve 日本語の文章. "
        var text = ""
        text.reserveCapacity(bodyBytes + 1_000)
        var number = 0
        while text.utf8.count < bodyBytes {
            text += "\(number). " + String(repeating: sentence, count: 7) + "\n"
            number += 1
        }
        return text
    }
}
