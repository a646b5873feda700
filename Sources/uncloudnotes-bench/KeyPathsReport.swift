import Foundation

/// Issue 34's keys in the report: the table, the method and the verdicts.
extension KeyPaths {
    /// The target: each of the four keys painted within a frame at 60 Hz.
    static let target = 0.016

    /// How the part measures, for the report's method list.
    static let method = "on a synced copy of the read-path store with the 10 MB note as its newest note (added when missing) and every "
        + "\(taggedEvery)th note tagged, its search index built: a \(BigNotePaths.screen.width)x\(BigNotePaths.screen.height) app in process, "
        + "each key timed from the key to the painted screen as the loop runs it (handled, its store effects run, commit and fsync "
        + "included, the frame read and drawn into cells); between keys the background's answers (the rest of a list read again) are "
        + "taken, untimed. `p` twice on the second note (pinned, unpinned), `s` twice, Enter in the tag picker and Esc, and Ctrl-S "
        + "of a title-only change of the second note; apart: `t` (the picker, which counts every tag's notes), `p` on the 10 MB "
        + "note and a title-only save of it (SQLite writes a row whole, 10 MB for one flag or a title). A fresh app per run."

    /// The report's table, one row per store size.
    static func section(_ results: [Result]) -> [String] {
        BenchReport.section("## Keys on the list with a 10 MB note (issue 34)",
                            header: "| notes | tagged | p (pin, unpin) | s (both orders) | tag filter (Enter, Esc) | title-only save | t (the picker, apart) | p on the 10 MB note (apart) | its title saved (apart) |",
                            alignment: "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
                            rows: results.map { r in
                                "| \(r.notes) | \(r.taggedNotes) | \(BenchReport.time(r.pin)) | \(BenchReport.time(r.sort)) | \(BenchReport.time(r.tagFilter)) | "
                                    + "\(BenchReport.time(r.titleSave)) | \(BenchReport.time(r.tagPicker)) | \(BenchReport.time(r.bigNotePin)) | "
                                    + "\(BenchReport.time(r.bigNoteTitleSave)) |"
                            })
    }

    /// One line per key and size: the slowest run's key against the target.
    static func verdicts(_ results: [Result]) -> [String] {
        results.flatMap { r in
            [("p", r.pin), ("s", r.sort), ("a tag filter", r.tagFilter), ("a title-only save", r.titleSave)].map { name, stats in
                "\(name) from key to painted screen at \(r.notes) notes with the 10 MB note under 16 ms (issue 34; slowest of the runs): "
                    + "\(BenchReport.time(stats.max)), \(stats.max < target ? "met" : "not met")"
            }
        }
    }
}
