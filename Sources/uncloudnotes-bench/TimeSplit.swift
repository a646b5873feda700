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
        "Phases of v2 -> v4 with small images at 1,000,000 notes, wall time, on a quiet moment (6.5 s in all, 2026-11-25): the three "
            + "secondary indexes built once at the end 0.77 s; the validation scan of the new notes table 0.56 s; the source checks "
            + "before anything is written (every row's entity 0.34 s, the count for the progress 0.29 s); numbering the 100,000 "
            + "attachments 0.20 s; the attachments' `INSERT ... SELECT` with the three functions 1.3 s; the notes' copy and the final "
            + "sync the rest. v1 -> v4 at 1,000,000 notes: 3.1 s, of which the date index 0.64 s and the entity check 0.25 s.", "",
        "Phases of the chains to v5 at 1,000,000 notes with small images, after this round's changes (2026-11-26, quiet machine, the "
            + "engine's statements timed one by one; seconds):", "",
        "| phase | v4 -> v5 (4.24 s) | v2 -> v5 (5.26 s) |",
        "|---|---:|---:|",
        "| the notes' rows: `INSERT ... SELECT` in batches of 2,000, and their commits (the pages written) | 1.44 | 1.59 |",
        "| the attachments' rows (v2 -> v5: images moved, sized and captioned) | 0.25 | 0.54 |",
        "| v5's indexes on the notes: identifiers' uniqueness, pinned then created, pinned then modified, created | 1.75 | 1.73 |",
        "| the attachments' three indexes | 0.15 | 0.14 |",
        "| numbering the attachments and linking them to their notes (v2 -> v5 only) | 0 | 0.42 |",
        "| source checks (every row's entity) and validation (the attachments' links) | 0.29 | 0.33 |",
        "| the rest: opening, the final sync, renames, backup link | 0.36 | 0.51 |", "",
        "Instruction counts (callgrind, user space only: the kernel's copies and syncs are not in them) of the release build at "
            + "1,000,000 notes with small images, 2026-11-26 (valgrind 3.19 cannot read Swift 6.3's debug information, so it was "
            + "stripped and the symbols kept):", "",
        "| share of instructions | v4 -> v5 (34.9 G) | v2 -> v5 (41.9 G) |",
        "|---|---:|---:|",
        "| building the indexes at the end (`DeferredIndexes`), of which SQLite's sorter | 62.3% (39.1%) | 51.9% (32.6%) |",
        "| the rows' `INSERT ... SELECT` (`insertInstances`), of which the SQL functions | 34.4% (9.3%) | 39.0% (18.0%) |",
        "| ... the functions' own work: identifiers; captions; image sizes | 2.2% | 1.8%; 2.3%; 4.4% |",
        "| numbering the attachments, and their links | 0 | 4.2%, 1.8% |",
        "| the source's entity check; validation | 1.9%; 1.1% | 1.4%; 1.5% |", "",
        "At 100,000 notes the split is alike (3.19 G and 3.88 G instructions; the indexes 57.5% and 47.4%). The rest of each "
            + "function's share (7% and 10% of all instructions) is the call itself: GRDB's `DatabaseFunction` wraps every argument "
            + "and result in a `DatabaseValue` (a blob argument is copied into `Data`) and the engine converts them to and from "
            + "`AttributeValue`. It is the one overhead left in the row copy that is not SQLite's own work.", "",
        "What this says:", "",
        "- **What both pay:** reading and writing pages through the kernel and syncing them, 45-66% of the engine's CPU "
            + "(the profile of 2026-11-25 above). The Swift functions are small (an image's size read from its header in place, a "
            + "caption from the body's first 80 grapheme clusters): 2-7%.",
        "- **What `VACUUM INTO` does not do, and the engine must:** it copies each table's records in key order without decoding "
            + "them (SQLite's transfer optimization) and copies indexes already sorted, while a migration decodes every row and "
            + "evaluates its mapping, sorts to build the indexes its model declares anew, and scans for its checks.",
        "- **The floor of a migration to v5 is not `VACUUM INTO`.** v5 declares four indexes on the notes that v4 does not have "
            + "(or that hold new values): building them is a sort of a million keys each, 1.75 s at 1,000,000 notes, more than "
            + "`VACUUM INTO` of the whole store (1.47 s). The same change written as the cleanest row copy by hand (Python's sqlite3: "
            + "a new file without a journal, one `INSERT ... SELECT` per table with `randomblob(16)` identifiers, v5's indexes after, "
            + "no checks, then fsync of the file and its folder; whole process, 3 runs) takes 0.39-0.40 s at 100,000 notes and "
            + "3.6 s at 1,000,000 for v4 -> v5 with small images, where the engine takes 0.41 s and 4.31 s (1.03x and 1.2x) with "
            + "its checks, backup and progress. Adding the indexes first and maintaining them while the rows go in was slower "
            + "(3.9 s against 3.0-3.8 s for the notes alone at 1,000,000), and neither a larger page cache, sorter threads nor in-memory "
            + "temporary files made the sorts faster. So the 2x-of-`VACUUM INTO` target cannot be met by chains to v5 with small "
            + "or no images; with big images the copy of the images dominates both, and they are within 2x but for v2 -> v5 at "
            + "1,000,000 notes (2.35x), which also moves every image to its new table.",
        "- **Big images at 1,000,000 notes measure the machine more than the engine.** Each run writes 4.5 GB, and on this "
            + "virtual machine the same work took up to 3x longer from one quarter of an hour to the next: `VACUUM INTO` of the v2 "
            + "store measured 6.0 s in the report's run and 16.4-17.8 s twenty minutes later, when the engine's v2 -> v5 took 15.4-"
            + "17.3 s (0.9-1.1x of it). Half of the engine's samples there (`perf`) are the kernel copying written pages into the "
            + "page cache (`copy_folio_from_iter_atomic`), which includes the host backing the guest's memory. In a traced run of 21 s the attachments' "
            + "`INSERT ... SELECT` with its image-size and caption functions took 14.1 s; the images alone copied by Python's sqlite3 "
            + "into a new table took 6.8 s a few minutes later, so part of the gap may be the engine's (its functions, the joins "
            + "to the association and link tables) and part the moment. The 2.35x verdict is from one such run.",
        "- **Removed this round** (what was not the cost of writing the file):",
        "  - *Unique indexes while the rows went in.* Every new identifier was a random insert into a B-tree larger than the page "
            + "cache; the unique indexes are now built at the end with the others (a duplicate is still refused, by the build). "
            + "v4 -> v5 at 1,000,000 notes: 7.9 s to 4.3 s.",
        "  - *Validation of values valid as made.* A `MigrationFunction` can promise the type of every value it gives (the "
            + "engine holds it to that), and a default valid for its attribute needs no check; entities no mapping makes are "
            + "skipped. v4 -> v5 no longer scans the notes (0.3 s at 1,000,000), and v3 -> v4 checks only the attachments' links.",
        "  - *A table of links where the row has the key.* When both sides keep their source keys, a to-one is read from the "
            + "source row (0.4 s at 1,000,000 for v4 -> v5).",
        "  - *The count for the progress bar.* A mapping numbered before its rows go in is counted from its association (0.2 s "
            + "for v2 -> v5 at 1,000,000).",
        "  - *A copy for the backup before an in-place step,* where the file system can clone (the table's last column).",
        "- **The checks stay on purpose.** The entity check and the validation of links make a damaged store refused instead "
            + "of silently losing rows (docs/safety.md): 0.3 s of v4 -> v5 at 1,000,000 notes, 7%.",
        "- **Not done:** image sizes through SQLite's incremental blob reads (the copy reads every blob anyway, so the gain is "
            + "doubtful), captions without copying the body, SQL functions registered without GRDB's value boxing (tried: "
            + "registered with SQLite directly, reading arguments in place, v4 -> v5 at 100,000 notes went from 3.19 G to 3.15 G "
            + "instructions and v2 -> v5 from 3.88 G to 3.80 G; most of a call's cost is its result's `Data` allocated and freed for 16 bytes, so "
            + "the unsafe code was not kept for 1-2%), and an in-place path for "
            + "steps with custom policies (by hand at 100,000 notes, `VACUUM INTO` then v5's columns added and filled in place and its "
            + "indexes built took 0.39 s, the row copy 0.32 s, neither synced).",
        "- **Chains to v5** take their identifiers from a 4 KB buffer of random bytes (`RandomIdentifiers`) instead of `UUID()`, "
            + "which opened and read `/dev/urandom` once per row (17% of v1 -> v5's CPU at 100,000 notes before).",
    ]
}
