import Foundation

/// The benchmark's figures, written as JSON and as the Markdown of `docs/performance.md`.
struct BenchReport: Codable {
    struct Migration: Codable {
        var name: String
        var from: Int
        var to: Int
        /// `small`, `big`, or `none` for the v1 cases (a v1 store has no images).
        var images: String
        /// Whether the engine ran as the self-migrating stack (copy and backup included).
        var engineIsStack: Bool
        var engineSeconds: Stats
        /// Hand-written SQL, in place, in one transaction, on a synced copy.
        var baselineSeconds: Stats
        /// `cp` of the source store and fsync: what copying its bytes costs on this disk.
        var copyFloorSeconds: Stats
        var vacuumIntoFloorSeconds: Stats
        /// Issue 37's honest floor: `VACUUM INTO`, then the target's indexes the source lacks, then fsync.
        var indexedFloorSeconds: Stats?
        /// How many indexes the target has that the source lacks, built on the copy for that floor.
        var newIndexes: Int?
        /// How many more the target has on tables the source lacks (left out of that floor).
        var indexesOnNewTables: Int?

        /// The engine against the honest floor (issue 37), nil when it was not measured.
        var honestFloorRatio: Double? { indexedFloorSeconds.map { engineSeconds.median / max($0.median, 1e-9) } }

        var vacuumIntoRatio: Double { engineSeconds.median / max(vacuumIntoFloorSeconds.median, 1e-9) }

        /// "N indexes", and how many on new tables were left out.
        var newIndexesText: String {
            let leftOut = indexesOnNewTables ?? 0
            return "\(newIndexes ?? 0) indexes" + (leftOut > 0 ? ", \(leftOut) on new tables left out" : "")
        }
        var engineBytesWritten: Stats
        var baselineBytesWritten: Stats
        var enginePeakMemoryBytes: Stats
        var baselinePeakMemoryBytes: Stats
        var storeBytesBefore: Int64
        var storeBytesAfter: Int64
        /// How the stack made its backup: a hard link (the store only read), or before an
        /// in-place step a clone where the file system can make one (`FICLONE`), else a copy.
        var engineBackup: String?

        var ratio: Double { engineSeconds.median / max(baselineSeconds.median, 1e-9) }
    }

    struct Size: Codable {
        var notes: Int
        var imageCount: Int
        var migrations: [Migration]
        var readPaths: ReadPaths.Result?
        /// Keys and search typing with a 10 MB note on screen (issue 21).
        var bigNote: BigNotePaths.Result?
        var historyCost: HistoryCost.Result?
        /// v5's list pages: a tag's first screen, the pinned-first list's (issue 23).
        var tagAndPin: TagAndPinPaths.Result?
        /// Issue 38, bug 7: the first search after an upgrade, and the index's size.
        var firstSearch: FirstSearchPaths.Result?
        /// Issue 34: p, s, a tag filter and a title-only save, key to painted screen.
        var keyPaths: KeyPaths.Result?
    }

    var date: String
    var machine: String
    /// Interleaved runs per figure.
    var runs: Int
    /// Free text given with `--note` (why this run was made, what it is not).
    var note: String?
    var sizes: [Size]
    /// Time to picture for a camera-sized JPEG (issue 26).
    var picture: PicturePaths.Result?
    /// Sync through git: a first sync and a one-note sync against plain git (issue 25).
    var sync: [SyncPaths.Result]?
    /// `notes import` of a JSON export against a Python script (issue 38).
    var imports: [ImportPaths.Result]?
    /// `model check --json` of generated N-version models, whole process (issue 36).
    var modelCheck: [ModelCheckPaths.Result]?

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    func markdown() -> String {
        var lines = ["# Performance", "",
                     "Measured by `make bench` (`uncloudnotes-bench` built with `swift build -c release --static-swift-stdlib`, with `uncloudnotes` built the same way, as `make install` builds it); do not edit by hand.", "",
                     "- Date: \(date)", "- Machine: \(machine)", "- Runs: \(runs) per figure, interleaved"]
        if let note { lines += ["", "> **\(note)**"] }
        lines += ["", "## Method", ""] + Self.method + Self.migrationsSection(sizes)
        lines += Self.section("## Read paths (v5 store)",
                              header: "| notes | `notes list` (app) | Python sqlite3 | app / Python | rows (same output) | search first screen | search, all matches | launch to first screen (in process) | launch in tmux | tmux floor | later page (worst) |",
                              alignment: "|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|",
                              rows: sizes.compactMap(\.readPaths).map { r in
                                  "| \(r.notes) | \(Self.time(r.listApp)) | \(Self.time(r.listPython)) | \(String(format: "%.2f", r.listApp.median / max(r.listPython.median, 1e-9))) | "
                                      + "\(r.listRows) (\(r.listOutputsMatch ? "yes" : "**no**")) | \(Self.time(r.searchFirstScreen)) | \(Self.time(r.searchAllMatches)) (\(r.searchMatches)) | "
                                      + "\(Self.time(r.launchToFirstScreen)) | \(Self.time(r.launchInTerminal)) | \(Self.time(r.terminalFloor)) | \(Self.time(r.laterPageWorst)) |"
                              })
        lines += Self.firstSearchSection(sizes.compactMap(\.firstSearch))
        lines += Self.section("## A tag's notes and the pinned-first list (issue 23)",
                              header: "| notes | tagged | pinned | `--tag` first screen | pinned-first first screen |",
                              alignment: "|---:|---:|---:|---:|---:|",
                              rows: sizes.compactMap(\.tagAndPin).map { t in
                                  "| \(t.notes) | \(t.taggedNotes) | \(t.pinnedNotes) | \(Self.time(t.tagFirstScreen)) | \(Self.time(t.pinnedFirstScreen)) |"
                              })
        lines += Self.section("## A 10 MB note on screen (issue 21)",
                              header: "| notes | key to painted screen | slowest key (per run) | opening the editor | search keystroke (slowest per run) | search, last key to every match |",
                              alignment: "|---:|---:|---:|---:|---:|---:|",
                              rows: sizes.compactMap(\.bigNote).map { b in
                                  "| \(b.notes) | \(Self.time(b.key)) | \(Self.time(b.keyWorst)) | \(Self.time(b.editorOpen)) | \(Self.time(b.searchKeyWorst)) | \(Self.time(b.searchSettled)) |"
                              })
        lines += KeyPaths.section(sizes.compactMap(\.keyPaths))
        lines += Self.section("## Saving one note with persistent history (issue 24)",
                              header: "| notes | save without history | save with history | with / without |",
                              alignment: "|---:|---:|---:|---:|",
                              rows: sizes.compactMap(\.historyCost).map { h in
                                  "| \(h.notes) | \(Self.time(h.withoutHistory)) | \(Self.time(h.withHistory)) | \(String(format: "%.2f", h.ratio)) |"
                              })
        if let picture { lines += Self.pictureSection(picture) }
        lines += Self.section("## Sync through git (issue 25), a local bare repository as the remote",
                              header: "| notes | images | first sync | plain git: add, commit, push | one changed note | plain git: commit, pull, push | nothing to move | plain git: pull, push | first sync's peak memory | an empty store receiving all | its peak memory |",
                              alignment: "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
                              rows: (sync ?? []).map { r in
                                  "| \(r.notes) | \(r.images) | \(Self.time(r.firstSync)) | \(Self.time(r.firstSyncBaseline)) | \(Self.time(r.oneNote)) | "
                                      + "\(Self.time(r.oneNoteBaseline)) | \(r.noOp.map(Self.time) ?? "-") | \(r.noOpBaseline.map(Self.time) ?? "-") | "
                                      + "\(Self.bytes(Double(r.firstSyncPeakMemory))) | \(r.receive.map(Self.time) ?? "-") | "
                                      + "\(r.receivePeakMemory.map { Self.bytes(Double($0)) } ?? "-") |"
                              })
        lines += Self.section("## Encrypted remotes (issue 35): the same syncs with --encrypt",
                              header: "| notes | images | first sync, encrypted | plain first sync | encrypted / plain | one changed note, encrypted | plain git: commit, pull, push | encrypted first sync's peak memory |",
                              alignment: "|---:|---:|---:|---:|---:|---:|---:|---:|",
                              rows: (sync ?? []).compactMap { r in
                                  guard let first = r.encryptedFirstSync, let one = r.encryptedOneNote else { return nil }
                                  return "| \(r.notes) | \(r.images) | \(Self.time(first)) | \(Self.time(r.firstSync)) | "
                                      + "\(String(format: "%.2fx", first.median / max(r.firstSync.median, 1e-9))) | \(Self.time(one)) | "
                                      + "\(Self.time(r.oneNoteBaseline)) | \(r.encryptedFirstSyncPeakMemory.map { Self.bytes(Double($0)) } ?? "-") |"
                              })
        lines += Self.section("## Importing a JSON export (issue 38)",
                              header: "| notes | file | notes import | python3: json.load and INSERT | import / python | import's peak memory |",
                              alignment: "|---:|---:|---:|---:|---:|---:|",
                              rows: (imports ?? []).map { r in
                                  "| \(r.notes) | \(Self.bytes(Double(r.fileBytes))) | \(Self.time(r.engine)) | \(Self.time(r.baseline)) | "
                                      + "\(String(format: "%.2f", r.engine.median / max(r.baseline.median, 1e-9))) | \(Self.bytes(Double(r.enginePeakMemory))) |"
                              })
        lines += Self.modelCheckSection(modelCheck ?? [])
        lines += [""] + TimeSplit.section + [""] + TimeSplit.honestFloor
        lines += ["", "## Targets (issues 13, 23, 25, 26, 28, 34, 36, 37 and 38)", ""] + TargetVerdicts(report: self).all().map { "- \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    static let method = [
        "- **Stores.** Per size, a v1 store of N notes is generated; for each image kind, every 10th note gets an image at v2 (*small*: 16x16 PNG and 24x24 JPEG of noise, under 2 KB; *big*: about 50 KB), and the v3, v4 and v5 stores are made from it by the engine. These masters are synced and only read; generation is not timed.",
        "- **Engine.** Each run migrates a fresh copy of the master, synced to disk (file and folder) before timing, in a child process, through `StoreMigrator.migrateIfNeeded` as the app's self-migrating stack runs it: lock, the new scratch file, the backup (a hard link, or a copy before an in-place step: a clone where the file system can make one, named in the table's last column) and synced renames included, which is what a user waits for. The timer starts after the models are loaded. *(in place, step alone)* is the v1 -> v2 step alone through `InPlaceMigration`, without the stack's copy and backup.",
        "- **Baseline.** The same change written by hand in SQL, in place, in one transaction, as a user would write it (a chain directly: v2 -> v4 is one `INSERT ... SELECT` into the v4 attachments table, not v3 then v4; v4 -> v5 adds its columns in place, filling the notes' modified dates, pins and identifiers in one `UPDATE` and the attachments' identifiers in another, identifiers from a `new_uuid()` SQL function, and a chain to v5 is the chain to v4 followed by that in the same transaction), on its own synced copy, in a child process, timed from opening the store to closing it (commit and WAL checkpoint included). Image widths and heights (read from the headers, the blob not copied) and captions (the body's first 80 grapheme clusters, as the app's policy) come from SQL functions registered on the connection that call the app's own code; the attachments are numbered by SQLite in the notes' order, the notes' images cleared with their new entity in one pass before the column is dropped, the indexes built last, and freed pages are not zeroed (`secure_delete = FAST`: the freed images were just copied). The first run checks that the engine's and the baseline's results have the same tables, columns and indexes, the same number of objects of each entity, and the same attachments value by value (note, date, caption, width, height, image length and first bytes).",
        "- **Interleaving.** Each run does engine, baseline, then the floors, and the runs repeat in that order, so a slow moment of the machine hits all of them. Figures are the median of the runs with min and max.",
        "- **Floors**, measured in the same runs on the same source: `cp --reflink=never` of the store then fsync of the copy and its folder; `VACUUM INTO` a new file (SQLite's own sync of it off) then one fsync of the file and its folder; and the honest floor of issue 37, the least work that produces the target file: the same `VACUUM INTO`, then on that copy the indexes the target declares that the source lacks (the `CREATE INDEX` statements in the `sqlite_master` of the engine's result of the first run that the source's `sqlite_master` does not hold), built as the engine builds its new file's (no journal, no syncs of their own, the engine's page cache for a store of that size: 2-4 MB), then one fsync of the file and its folder; all of it timed in the benchmark's process like the `VACUUM INTO` floor. A column an index names that the source does not have yet is added empty first (free in SQLite, but the index then sorts NULLs where the target holds values), and an index on a table the source does not have is left out (the table says how many): both make this floor, if anything, low.",
        "- **Bytes written** are the child's `write_bytes` from `/proc/self/io`, read before and after the measured work (the kernel charges pages when they are dirtied, so writes it flushes later still count). **Peak memory** is the child's own `VmHWM` (the largest over the runs).",
        "- **Cold or warm.** Nothing is dropped from the page cache (the machine is shared): the copy a run reads was just written and synced, so its reads are served from memory (warm), while every write the run makes and every fsync it asks for reaches the disk. Read paths run on a warm v5 store.",
        "- **Read paths** on the v5 store with the first image kind: `notes list` is the built `uncloudnotes` binary printing every row to /dev/null, against a Python sqlite3 script printing the same lines (the first run checks that both outputs are byte-identical); both timed from start to exit. Search is the scan of `NoteBook.noteIDs(matching: \"\(ReadPaths.searchQuery)\", usingIndex: false)` (title or body, case and accents folded, as before the search index is built), then `rows(of:)`: the first screen (\(ReadPaths.screen.height) titles read) and all matches read. Launch is measured twice: in process without a terminal (open, check, fetch and lay out the first \(ReadPaths.screen.width)x\(ReadPaths.screen.height) list screen), and as a user sees it, the built binary started in a detached 80x24 tmux pane and timed until the pane shows the list's status line (drawn in the same refresh as its rows), polling the pane; the tmux floor is the same measure of a shell printing one line.",
        "- **The first search of a big store** (issue 38, bug 7): per run, a synced copy of the v1 store upgraded by the app's stack in process (`UnCloudNotesStack.open`), whose last stage builds the search index (its own time from the stage's event); then the issue's search “\(FirstSearchPaths.query)” (no note holds it, so every trigram list is read), its IDs and every match's row, and how many entries it had to fold (0: it built nothing); the sizes of the index file and the store. Then the index is deleted (a store another program made, or an index removed) and the same search on a new book, which builds it first.",
        "- **Saving one note with persistent history** (issue 24): two copies of the read-path store, one opened with history tracking and one without; \(HistoryCost.savesPerRun) notes added and saved one at a time on each, alternating, each timed from its insert to the committed transaction; the median save of each run, then the median of the runs.",
        "- **Time to picture** (issue 26): a store of two notes, the older holding a JPEG of noise (the worst case for its decoder) of the given size; a \(PicturePaths.screen.width)x\(PicturePaths.screen.height) app in process with \(PicturePaths.cell.width)x\(PicturePaths.cell.height)-pixel cells, per protocol, a fresh app per run: the key selecting the photo's note (handled and painted, timed apart), then, as the terminal loop does, the background's previews taken and, when they arrived, the frame drawn, until it holds the picture, decoded no smaller than the preview's size and encoded (kitty and iTerm2 by libchafa, sixel by `SixelEncoder`). Writing the bytes to a terminal and its drawing them are not included.",
        "- **Importing** (issue 38): the app's own JSON export of a v5 store of N notes of a few lines, each with one of 50 tags and a tag every note has, every \(SyncPaths.imageEvery)th with a different 64x64 PNG; `uncloudnotes notes import FILE` into a new store, whole process (every image checked and decoded as `notes attach` checks it), with its peak memory from GNU time. The baseline is what a user would write instead: python3 reading the file with `json.load` and inserting notes, tags, their links and the images (base64-decoded, not checked) into SQLite in one transaction.",
        "- **model check** (issue 36): a generated Xcode model of N versions (`Note` with a required title, an external binary and to-many tags, its sub-entity `Sub`, and `Tag`; version k adds k optional Integer 32 attributes to `Note`), the last one current; `uncloudnotes model check M.xcdatamodeld --json`, whole process, as the user waits for it (every route planned and its trial store generated, migrated and checked), with its peak memory from GNU time, the runs interleaved across the version counts. A run counts only if the check exits 0 and its JSON's `trialsPassed` is N - 1; *the check's own time* is the `seconds` it reports.",
        "- **Sync through git** (issue 25): a v5 store of N notes of a few lines, every \(SyncPaths.imageEvery)th with a different 64x64 PNG of noise (about 12 KB), and a new local bare repository as the remote, per run. Whole processes, as the user waits for them: `uncloudnotes sync --remote R` (the first sync: export through `git fast-import`, fetch, merge, apply, push; its peak memory from GNU time, the program's own and not git's), then `notes edit` of one note (not timed) and `uncloudnotes sync`, then `uncloudnotes sync` once more with nothing to move (issue 39: it starts three git processes, the remote's URL, `status` and `fetch`), and last a new, empty store's first sync from that remote. The baseline is what a user of a plain folder of notes does instead, done well, on the same files (the first sync's mirror, checked out): `git init; git add -A; git commit; git push` in one shell command, then one file edited (not timed) and `git commit -a; git pull; git push`, then `git pull; git push` with nothing to move. *An empty store receiving all* is a new store's first sync from that remote, run last (every note and image applied, in transactions of 500 notes), with its peak memory. *Encrypted* (issue 35): in the same runs, another synced copy of the store syncs with `--encrypt` to a remote of its own (its age identity made on first need), then one note is edited (not timed) and synced.",
        "- **Keys on the list with a 10 MB note** (issue 34): \(KeyPaths.method)",
        "- **A 10 MB note on screen** (issue 21), on the read-path store with one more note, the newest, of 10 MB of numbered paragraphs (Latin with accents and Japanese), its search index built: a \(BigNotePaths.screen.width)x\(BigNotePaths.screen.height) app in process, keys as the terminal loop runs them, each timed from the key to the painted screen (key handled, its effects run, the frame read and drawn into cells): \(BigNotePaths.keys.count) keys on the list beside the note's preview and in the note (down, up, Enter, scrolling, End, Home, Esc), then `e` (opening the editor, which turns the whole body into editable characters once: reported apart) and \(BigNotePaths.editorKeys.count) keys in the editor (typing at the note's end, PgUp, up, down). Then \(BigNotePaths.searchQueries.map { "“\($0)”" }.joined(separator: " and ")) typed a key at a time after `/` (each keystroke timed the same way, the search running in the background as in the app), and the time from the last key until every match is on screen (taking the background's answers and painting every millisecond). A fresh app per run.",
    ]

    /// A section holding a table, or nothing when the run measured none of its rows.
    /// The time to picture table, as the report and `uncloudnotes-bench picture` print it.
    static func pictureSection(_ picture: PicturePaths.Result) -> [String] {
        section("## Time to picture (issue 26): a \(picture.width)x\(picture.height) JPEG of \(bytes(Double(picture.imageBytes)))",
                header: "| protocol | key to picture in the frame | the key itself | picture | encoded |",
                alignment: "|---|---:|---:|---:|---:|",
                rows: picture.protocols.map { p in
                    "| \(p.name) | \(time(p.toPicture)) | \(time(p.key)) | \(p.pictureWidth)x\(p.pictureHeight) px | \(bytes(Double(p.pictureBytes))) |"
                })
    }

    /// The first search's table (issue 38), as the report and `uncloudnotes-bench first-search` print it.
    static func firstSearchSection(_ results: [FirstSearchPaths.Result]) -> [String] {
        section("## The first search of a big store (issue 38, bug 7)",
                header: "| notes | upgrade from v1, index included | of which the search index | first search after it (all matches) | entries it folded | first search with no index (builds it) | index | store | index / store |",
                alignment: "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
                rows: results.map { f in
                    "| \(f.notes) | \(time(f.upgrade)) | \(time(f.indexStage)) | \(time(f.firstSearch)) (\(f.matches)) | \(f.foldedByFirstSearch) | "
                        + "\(time(f.firstSearchBuilding)) | \(bytes(Double(f.indexBytes))) | \(bytes(Double(f.storeBytes))) | "
                        + "\(String(format: "%.2f", f.indexToStore)) |"
                })
    }

    /// The model check's table (issue 36), as the report and `uncloudnotes-bench model-check` print it.
    static func modelCheckSection(_ results: [ModelCheckPaths.Result]) -> [String] {
        section("## model check of an N-version model (issue 36)",
                header: "| versions | routes | trials passed | `model check --json`, whole process | the check's own time | peak memory |",
                alignment: "|---:|---:|---:|---:|---:|---:|",
                rows: results.map { r in
                    "| \(r.versions) | \(r.routes) | \(r.trialsPassed) | \(time(r.check)) | \(time(r.checkInProcess)) | \(bytes(Double(r.peakMemory))) |"
                })
    }

    static func section(_ title: String, header: String, alignment: String, rows: [String]) -> [String] {
        rows.isEmpty ? [] : ["", title, "", header, alignment] + rows
    }

    static func time(_ stats: Stats) -> String { "\(time(stats.median)) (\(time(stats.min))-\(time(stats.max)))" }

    static func time(_ seconds: Double) -> String {
        seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }

    static func bytes(_ count: Double) -> String {
        count >= Double(1 << 30) ? String(format: "%.2f GB", count / Double(1 << 30))
            : count >= Double(1 << 20) ? String(format: "%.1f MB", count / Double(1 << 20)) : String(format: "%.0f KB", count / 1024)
    }
}
