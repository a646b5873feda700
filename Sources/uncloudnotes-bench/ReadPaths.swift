import Foundation
import ManagedStore
import NotesTerminalUI
import UnCloudNotesKit

/// The app's read paths on a store of the current version (v5): launch to the first painted list and a search, in process
/// and without a terminal; `notes list` as the real binary against Python's sqlite3 printing the
/// same rows. Runs interleaved like the migrations.
enum ReadPaths {
    struct Result: Codable {
        var notes: Int
        var launchToFirstScreen: Stats
        /// The real binary in a tmux pane, to its first painted list, and the method's floor.
        var launchInTerminal: Stats
        var terminalFloor: Stats
        var laterPageWorst: Stats
        var searchQuery: String
        var searchFirstScreen: Stats
        var searchAllMatches: Stats
        var searchMatches: Int
        var listApp: Stats
        var listPython: Stats
        var listRows: Int
        /// Whether the app and the Python script printed byte-identical lines (checked on the first run).
        var listOutputsMatch: Bool
    }

    static let searchQuery = "CAFE"
    static let screen = (width: 80, height: 24)

    static func measure(storeAt url: URL, notes: Int, runs: Int, scratch: URL) throws -> Result {
        DisplayWidth.configureLocale()
        let app = try ChildProcess.sibling("uncloudnotes")
        let script = scratch.appendingPathComponent("list.py")
        try Data(pythonList.utf8).write(to: script)
        var log = RunLog()
        var matches = 0, rows = 0, outputsMatch = false
        for run in 0..<runs {
            let (launch, later) = try launchToFirstScreen(url)
            log.add(launch, to: "launch")
            log.add(later, to: "later")
            log.add(try TerminalLaunch.app(app, store: url, notes: notes), to: "terminal")
            log.add(try TerminalLaunch.floor(), to: "floor")
            let book = try UnCloudNotesStack(storeURL: url).open()
            log.add(try search(book, rowsRead: screen.height), to: "searchFirst")
            let start = DispatchTime.now()
            matches = try readAllMatches(book)
            log.add(seconds(since: start), to: "searchAll")
            log.add(try ChildProcess.run(app.path, ["notes", "list", "--store", url.path]), to: "app")
            log.add(try ChildProcess.run("/usr/bin/env", ["python3", script.path, url.path]), to: "python")
            if run == 0 {
                (rows, outputsMatch) = try compareListOutputs(app: app, script: script, store: url, scratch: scratch)
            }
        }
        return Result(notes: notes, launchToFirstScreen: log.stats("launch"), launchInTerminal: log.stats("terminal"),
                      terminalFloor: log.stats("floor"), laterPageWorst: log.stats("later"), searchQuery: searchQuery,
                      searchFirstScreen: log.stats("searchFirst"), searchAllMatches: log.stats("searchAll"), searchMatches: matches,
                      listApp: log.stats("app"), listPython: log.stats("python"), listRows: rows, listOutputsMatch: outputsMatch)
    }

    /// Open the store, check it, fetch and lay out the first list screen; then the worst of six page moves.
    private static func launchToFirstScreen(_ url: URL) throws -> (launch: Double, laterPageWorst: Double) {
        let start = DispatchTime.now()
        let stack = try UnCloudNotesStack(storeURL: url)
        guard case .current = try stack.migrator.state() else { throw BenchError("\(url.path): the read-path store is not current") }
        let book = try stack.open()
        let app = NotesApp(book: book, storePath: url.path, versionLabel: stack.versionLabel, colors: ColorSupport(depth: .indexed256))
        let runner = NotesEffectRunner(book: book)
        runner.perform(app.launch(), on: app)
        _ = runner.render(app, width: screen.width, height: screen.height)
        let launch = seconds(since: start)
        var worst = 0.0
        for key in [Key.pageDown, .pageDown, .end, .pageUp, .home, .pageDown] {
            let pageStart = DispatchTime.now()
            runner.perform(app.handle(key), on: app)
            _ = runner.render(app, width: screen.width, height: screen.height)
            worst = max(worst, seconds(since: pageStart))
        }
        return (launch, worst)
    }

    /// The search the list runs as one types before the index is ready (the scan), until
    /// `rowsRead` matching rows are read.
    private static func search(_ book: NoteBook, rowsRead: Int) throws -> Double {
        let start = DispatchTime.now()
        _ = try book.rows(of: book.noteIDs(matching: searchQuery, page: ListPage(limit: rowsRead), usingIndex: false))
        return seconds(since: start)
    }

    /// Every match's row read by the scan. - Returns: the number of matches.
    private static func readAllMatches(_ book: NoteBook) throws -> Int {
        try book.rows(of: book.noteIDs(matching: searchQuery, usingIndex: false)).count
    }

    private static func compareListOutputs(app: URL, script: URL, store: URL, scratch: URL) throws -> (rows: Int, match: Bool) {
        let appOutput = scratch.appendingPathComponent("list-app.txt"), pythonOutput = scratch.appendingPathComponent("list-python.txt")
        // Removing the temporary outputs is best effort.
        defer { [appOutput, pythonOutput].forEach { try? FileManager.default.removeItem(at: $0) } }
        try ChildProcess.run(app.path, ["notes", "list", "--store", store.path], standardOutput: appOutput.path)
        try ChildProcess.run("/usr/bin/env", ["python3", script.path, store.path], standardOutput: pythonOutput.path)
        let (a, b) = (try Data(contentsOf: appOutput), try Data(contentsOf: pythonOutput))
        return (a.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }, a == b)
    }

    /// What a person would write with Python's sqlite3 to print the rows `notes list` prints.
    static let pythonList = #"""
        import datetime, sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        epoch = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)
        # The list's escaping: tab, newline, return and backslash as \\t \\n \\r \\\\, other controls visibly.
        visible = {c: "^" + chr(c + 0x40) for c in range(0x20)}
        visible.update({0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r", 0x5C: "\\\\", 0x7F: "^?"})
        visible.update({c: "<U+%04X>" % c for c in range(0x80, 0xA0)})
        write = sys.stdout.write
        # v5's list: pinned notes first, each row with its pin and its tags (sorted, comma-separated).
        for key, date, title, images, pinned, tags in db.execute(
                "SELECT n.Z_PK, n.ZDATECREATED, n.ZTITLE, (SELECT COUNT(*) FROM ZATTACHMENT a WHERE a.ZNOTE = n.Z_PK), n.ZPINNED, "
                "(SELECT group_concat(name, char(31)) FROM (SELECT t.ZNAME AS name FROM Z_3TAGS j JOIN ZTAG t ON t.Z_PK = j.Z_4TAGS "
                "WHERE j.Z_3NOTES = n.Z_PK ORDER BY t.ZNAME)) "
                "FROM ZNOTE n ORDER BY n.ZPINNED DESC, n.ZDATECREATED DESC, n.Z_PK DESC"):
            when = (epoch + datetime.timedelta(seconds=date)).strftime("%Y-%m-%dT%H:%M:%SZ") if date is not None else "-"
            count = "" if not images else "1 image" if images == 1 else f"{images} images"
            names = ", ".join(name.translate(visible) for name in tags.split(chr(31))) if tags else ""
            write(f"{key}\t{when}\t{title.translate(visible)}\t{count}\t{'pinned' if pinned else ''}\t{names}\n")
        """#
}
