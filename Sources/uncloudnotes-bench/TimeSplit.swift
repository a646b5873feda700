/// Where a migration's time goes, profiled by hand (the benchmark does not rerun it): the text of
/// performance.md's section, with how it was measured, so the next profile can be compared.
enum TimeSplit {
    static let section = [
        "## Where the time goes (issue 28)", "",
        "Profiled by hand on the release build at 1,000,000 notes (v1 -> v4, v2 -> v4 with small images) and 100,000 (v2 -> v4 with "
            + "big images), on a 2-core machine shared with builds: `perf record -e cpu-clock -g` of `uncloudnotes-bench measure "
            + "--engine stack` (the hardware counters are not available there), each share the samples under one entry point; and "
            + "the engine's statements timed one by one (GRDB's profile trace) for the phases.", "",
        "| share of CPU | v1 -> v4, 1M | v2 -> v4 small, 1M | v2 -> v4 big, 100k |",
        "|---|---:|---:|---:|",
        "| reading the source's pages (`pread`, the kernel copying from the page cache) | 16% | 26% | 34% |",
        "| writing the new file's pages (`pwrite`) | 26% | 21% | 26% |",
        "| syncing the new file (`fdatasync`) | 5% | 3% | 6% |",
        "| the caption and image-size functions (Swift, through GRDB) | 0% | 7% | 2% |",
        "| SQLite's VM and B-trees (row copying, index builds' sorting), the rest | 53% | 43% | 32% |", "",
        "Phases of v2 -> v4 with small images at 1,000,000 notes, wall time, on a quiet moment (6.5 s in all): the three secondary "
            + "indexes built once at the end 0.77 s; the validation scan of the new notes table 0.56 s; the source checks before "
            + "anything is written (every row's entity 0.34 s, the count for the progress 0.29 s); numbering the 100,000 attachments "
            + "0.20 s; the attachments' `INSERT ... SELECT` with the three functions 1.3 s; the notes' copy and the final sync the rest. "
            + "v1 -> v4 at 1,000,000 notes: 3.1 s, of which the date index 0.64 s and the entity check 0.25 s.", "",
        "What this says:", "",
        "- **What both pay:** reading and writing pages through the kernel and syncing them, 45-66% of the engine's CPU. "
            + "The Swift functions are small (an image's size read from its header in place, a caption from the body's first 80 "
            + "grapheme clusters): 2-7%.",
        "- **What `VACUUM INTO` does not do, and the engine must:** it copies each table's records in key order without decoding "
            + "them (SQLite's transfer optimization) and copies indexes already sorted, while a migration decodes every row and "
            + "evaluates its mapping (SQLite's VM, 32-53% of the CPU), sorts to build the secondary indexes it changed (0.6-0.8 s "
            + "at 1,000,000 notes), and scans for its checks.",
        "- **The checks stay on purpose.** The entity check and the validation scan make a damaged store refused instead of "
            + "silently losing rows (docs/safety.md); they read, they do not write, and together they are about 15% of v2 -> v4 "
            + "at 1,000,000 notes. The progress count is the one scan that only serves the progress bar; mappings that keep "
            + "their keys already count by key bounds instead.",
        "- **Already done once:** secondary indexes are dropped before the bulk insert and built once at the end "
            + "(`DeferredIndexes`); the new file is written without a journal and synced once; every mapping of a chain runs in one "
            + "pass; the backup of a copying step is a hard link, and before an in-place step a clone where the file system can "
            + "make one (the table's last column says which ran).",
        "- **Chains to v5** also give every note and attachment a new random identifier (an SQL function in Swift per row) and "
            + "build v5's indexes (the identifiers' uniqueness, pinned first, by date). The identifier function was 17% of v1 -> v5's "
            + "CPU at 100,000 notes, nearly all of it `UUID()` opening and reading `/dev/urandom` once per row; identifiers now come "
            + "from a 4 KB buffer of random bytes (`RandomIdentifiers`): v1 -> v5 at 100,000 notes went from 0.75 s to 0.46 s of CPU "
            + "(0.80 s to 0.50 s wall, debug build, 3 runs each). Runs of the benchmark older than that change measured the old way.",
        "- **Where the 2x-of-`VACUUM INTO` target is not met** (the verdicts below), it is v2 -> v4: every image moves to a new "
            + "table, read through SQLite's overflow pages (4 KB at a time through `pread`), measured, captioned and written again "
            + "row by row, where `VACUUM INTO` copies the pages. v1 -> v4 changes no image and stays within 2x. A migration "
            + "cannot be a page copy; what is left to win is inside SQLite's row copy, not around it.",
    ]
}
