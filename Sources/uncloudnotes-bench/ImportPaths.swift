import Foundation

/// Issue 38: `notes import` of a JSON export, whole process as the user waits for it, against
/// what a user would write instead, done well: a Python script that reads the same file with
/// `json.load` and inserts the notes, their tags and images into SQLite in one transaction.
/// The file is the app's own export of a tagged v5 store (one note in ten with a small PNG).
enum ImportPaths {
    struct Result: Codable {
        var notes: Int
        var fileBytes: Int64
        /// `uncloudnotes notes import FILE` into a new store.
        var engine: Stats
        /// python3: `json.load`, then notes, tags and images inserted in one transaction.
        var baseline: Stats
        var enginePeakMemory: Int64
    }

    static func measure(sizes: [Int], runs: Int, scratch: URL, log: (String) -> Void) throws -> [Result] {
        let app = try ChildProcess.sibling("uncloudnotes")
        return try sizes.map { notes in
            log("import: \(notes) notes")
            let folder = scratch.appendingPathComponent("import-\(notes)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Scratch: removing it is best effort.
            defer { try? FileManager.default.removeItem(at: folder) }
            let master = folder.appendingPathComponent("master.sqlite")
            _ = try SyncPaths.makeStore(at: master, notes: notes, tagged: true)
            let export = folder.appendingPathComponent("export.json")
            try ChildProcess.run(app.path, ["--store", master.path, "notes", "export", "--output", export.path])
            let script = folder.appendingPathComponent("import.py")
            try Data(baselineScript.utf8).write(to: script)
            var timings = RunLog()
            var peaks: [Int64] = []
            for run in 0..<runs {
                let store = folder.appendingPathComponent("engine-\(run).sqlite")
                let (seconds, peak) = try SyncPaths.timedWithPeak(app, ["--store", store.path, "notes", "import", export.path],
                                                                  memory: folder.appendingPathComponent("peak"))
                timings.add(seconds, to: "engine")
                peaks.append(peak)
                timings.add(try ChildProcess.run("/usr/bin/env", ["python3", script.path, export.path,
                                                                  folder.appendingPathComponent("baseline-\(run).sqlite").path]), to: "baseline")
            }
            let size = (try FileManager.default.attributesOfItem(atPath: export.path)[.size] as? Int64) ?? 0
            return Result(notes: notes, fileBytes: size, engine: timings.stats("engine"), baseline: timings.stats("baseline"),
                          enginePeakMemory: peaks.max() ?? 0)
        }
    }

    /// The baseline: the file read whole, notes, tags (one row per name), their links and the
    /// images (decoded from base64) inserted in one transaction, then committed.
    private static let baselineScript = """
        import base64, json, sqlite3, sys
        archive = json.load(open(sys.argv[1]))
        db = sqlite3.connect(sys.argv[2])
        db.executescript('''
          CREATE TABLE note(id INTEGER PRIMARY KEY, identifier TEXT UNIQUE, title TEXT, body TEXT, created TEXT, modified TEXT, pinned INTEGER);
          CREATE TABLE tag(id INTEGER PRIMARY KEY, name TEXT UNIQUE);
          CREATE TABLE note_tag(note INTEGER, tag INTEGER);
          CREATE TABLE image(id INTEGER PRIMARY KEY, note INTEGER, identifier TEXT, caption TEXT, data BLOB);
        ''')
        tags = {}
        with db:
            for note in archive['notes']:
                cursor = db.execute('INSERT INTO note(identifier, title, body, created, modified, pinned) VALUES (?, ?, ?, ?, ?, ?)',
                                    (note.get('identifier'), note['title'], note['body'], note.get('dateCreated'), note.get('dateModified'), note.get('pinned', False)))
                for name in note.get('tags', []):
                    if name not in tags:
                        tags[name] = db.execute('INSERT INTO tag(name) VALUES (?)', (name,)).lastrowid
                    db.execute('INSERT INTO note_tag VALUES (?, ?)', (cursor.lastrowid, tags[name]))
                for image in note.get('images', []):
                    db.execute('INSERT INTO image(note, identifier, caption, data) VALUES (?, ?, ?, ?)',
                               (cursor.lastrowid, image.get('identifier'), image.get('caption'), base64.b64decode(image['data'])))
        db.close()
        """
}
