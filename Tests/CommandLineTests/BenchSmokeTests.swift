import Foundation
import Testing
import TestSupport

@Suite("The benchmark program keeps working")
struct BenchSmokeTests {
    static let bench = BuiltExecutable.product(named: "uncloudnotes-bench")

    /// `output`: a file for what the run prints (a file, not a pipe: the report can outgrow a
    /// pipe's buffer while standard error is read to its end).
    private func runBench(_ arguments: [String], output: URL? = nil) throws -> (status: Int32, errorOutput: String) {
        let process = Process()
        process.executableURL = Self.bench
        process.arguments = arguments
        let errors = Pipe()
        if let output { #expect(FileManager.default.createFile(atPath: output.path, contents: nil)) }
        process.standardOutput = try output.map { try FileHandle(forWritingTo: $0) } ?? FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let errorOutput = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, errorOutput)
    }

    @Test("a tiny run writes both reports with every figure, interleaved runs and verdicts (no timing is judged here)")
    func tinyRun() throws {
        let folder = try TemporaryFolder()
        let run = try runBench(["--sizes", "60,120", "--images", "small,big", "--runs", "2", "--note", "smoke run", "--picture", "400x300",
                                "--sync-sizes", "30,60", "--import-sizes", "20,40", "--model-check-versions", "3,4",
                                "--output", folder.url.path, "--work", folder.url.appendingPathComponent("work").path])
        #expect(run.status == 0, "\(run.errorOutput)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("performance.json"))) as? [String: Any])
        #expect(json["runs"] as? Int == 2)
        let sizes = try #require(json["sizes"] as? [[String: Any]])
        #expect(sizes.map { $0["notes"] as? Int } == [60, 120])
        for size in sizes {
            let migrations = try #require(size["migrations"] as? [[String: Any]])
            #expect(migrations.map { "\($0["images"] as? String ?? "?") \($0["name"] as? String ?? "?")" } == [
                "none v1 -> v2 (in place, step alone)", "none v1 -> v2", "none v1 -> v5",
                "small v2 -> v3", "small v3 -> v4", "small v4 -> v5", "small v2 -> v5",
                "big v2 -> v3", "big v3 -> v4", "big v4 -> v5", "big v2 -> v5"])
            for migration in migrations {
                for key in ["engineSeconds", "baselineSeconds", "copyFloorSeconds", "vacuumIntoFloorSeconds", "indexedFloorSeconds"] {
                    let stats = try #require(migration[key] as? [String: Any], "\(key)")
                    let (low, middle, high) = (stats["min"] as? Double ?? -1, stats["median"] as? Double ?? -1, stats["max"] as? Double ?? -1)
                    #expect((stats["runs"] as? [Double])?.count == 2 && 0 < low && low <= middle && middle <= high, "\(key): \(stats)")
                }
                for key in ["engineBytesWritten", "baselineBytesWritten", "enginePeakMemoryBytes"] {
                    #expect(((migration[key] as? [String: Any])?["median"] as? Double ?? 0) > 0, "\(key)")
                }
                #expect((migration["storeBytesAfter"] as? Int ?? 0) > 0)
                // The honest floor builds v5's new indexes on the notes (issue 37); v3's attachments table is new, its indexes left out.
                if migration["name"] as? String == "v4 -> v5" { #expect((migration["newIndexes"] as? Int ?? 0) > 0) }
                if migration["name"] as? String == "v2 -> v3" { #expect((migration["indexesOnNewTables"] as? Int ?? 0) > 0) }
            }
            let reads = try #require(size["readPaths"] as? [String: Any])
            #expect(reads["listRows"] as? Int == size["notes"] as? Int)
            #expect(reads["listOutputsMatch"] as? Bool == true)
            #expect((reads["searchMatches"] as? Int ?? 0) > 0)
            #expect(((reads["listPython"] as? [String: Any])?["runs"] as? [Double])?.count == 2)
            for key in ["launchInTerminal", "terminalFloor"] {
                #expect(((reads[key] as? [String: Any])?["median"] as? Double ?? 0) > 0, "\(key)")
            }
            let tagAndPin = try #require(size["tagAndPin"] as? [String: Any])
            #expect(tagAndPin["taggedNotes"] as? Int == ((size["notes"] as? Int ?? 0) + 99) / 100)
            for key in ["tagFirstScreen", "pinnedFirstScreen"] {
                #expect(((tagAndPin[key] as? [String: Any])?["median"] as? Double ?? 0) > 0, "\(key)")
            }
            let history = try #require(size["historyCost"] as? [String: Any])
            for key in ["withoutHistory", "withHistory"] {
                #expect(((history[key] as? [String: Any])?["median"] as? Double ?? 0) > 0, "\(key)")
            }
            let bigNote = try #require(size["bigNote"] as? [String: Any])
            #expect(bigNote["bodyBytes"] as? Int == 10 << 20)
            for key in ["key", "keyWorst", "editorOpen", "searchKeyWorst", "searchSettled"] {
                #expect(((bigNote[key] as? [String: Any])?["median"] as? Double ?? 0) > 0, "\(key)")
            }
        }
        let picture = try #require(json["picture"] as? [String: Any])
        let protocols = try #require(picture["protocols"] as? [[String: Any]])
        #expect(protocols.map { $0["name"] as? String } == ["kitty", "sixel", "iterm2"])
        for timing in protocols {
            #expect(((timing["toPicture"] as? [String: Any])?["runs"] as? [Double])?.count == 2)
            #expect((timing["pictureBytes"] as? Int ?? 0) > 0 && (timing["pictureWidth"] as? Int ?? 0) > 0)
        }
        let syncs = try #require(json["sync"] as? [[String: Any]])
        #expect(syncs.map { $0["notes"] as? Int } == [30, 60])
        #expect(syncs.map { $0["images"] as? Int } == [3, 6])
        for sync in syncs {
            for key in ["firstSync", "firstSyncBaseline", "oneNote", "oneNoteBaseline"] {
                #expect(((sync[key] as? [String: Any])?["runs"] as? [Double])?.count == 2, "\(key)")
                #expect(((sync[key] as? [String: Any])?["min"] as? Double ?? 0) > 0, "\(key)")
            }
            #expect((sync["firstSyncPeakMemory"] as? Int ?? 0) > 1 << 20)
        }
        let imports = try #require(json["imports"] as? [[String: Any]])
        #expect(imports.map { $0["notes"] as? Int } == [20, 40])
        for result in imports {
            for key in ["engine", "baseline"] { #expect(((result[key] as? [String: Any])?["runs"] as? [Double])?.count == 2, "\(key)") }
            #expect((result["fileBytes"] as? Int ?? 0) > 0 && (result["enginePeakMemory"] as? Int ?? 0) > 1 << 20)
        }
        let markdown = try String(contentsOf: folder.url.appendingPathComponent("performance.md"), encoding: .utf8)
        #expect(markdown.contains("Time to picture of a 400x300 JPEG (0 MP) with sixel within 150 ms: "))
        #expect(markdown.contains("## Sync through git (issue 25)") && markdown.contains("| 60 | 6 | "))
        #expect(markdown.contains("First sync of 10000 notes under 10 s: not measured in this run (sync sizes run: 30, 60)."))
        #expect(markdown.contains("A sync of one changed note at 60 notes under 1 s plus git's own time: "))
        #expect(markdown.contains("First sync's memory flat in the number of notes (60 notes within 1.5x of 30): "))
        #expect(markdown.contains("## Importing a JSON export (issue 38)") && markdown.contains("Importing 20000 notes under 5 s: not measured in this run (import sizes run: 20, 40)."))
        #expect(markdown.contains("## Time to picture (issue 26): a 400x300 JPEG"))
        #expect(markdown.contains("> **smoke run**"))
        #expect(markdown.contains("| 120 | big | **v2 -> v5** |") && markdown.contains("| 120 | none | **v1 -> v5** |"))
        #expect(markdown.contains("## A tag's notes and the pinned-first list (issue 23)") && markdown.contains("at 1000000 notes under 50 ms (issue 23): not measured"))
        #expect(markdown.contains("## A 10 MB note on screen (issue 21)") && markdown.contains("Key to painted screen with a 10 MB note on screen at 120 notes"))
        #expect(markdown.contains("## Targets (issues 13, 23, 25, 26, 28, 34, 36, 37 and 38)") && markdown.contains("at 100000 notes at most 1.0x the in-place SQL: not measured in this run"))
        #expect(markdown.contains("## Keys on the list with a 10 MB note (issue 34)") && markdown.contains("| 120 | 1 | ")
            && markdown.contains("p from key to painted screen at 120 notes with the 10 MB note under 16 ms"))
        #expect(markdown.contains("## model check of an N-version model (issue 36)") && markdown.contains("| 4 | 3 | 3 | ")
            && markdown.contains("`model check` of a 20-version model under 10 s: not measured in this run (versions run: 3, 4)."))
        #expect(markdown.contains("## Where the time goes (issue 28)"))
        #expect(markdown.contains("Whole chains at 100000 notes within 2x of `VACUUM INTO`: not measured in this run"))
        #expect(markdown.contains("| VACUUM INTO + new indexes | engine / that |") && markdown.contains("Issue 37 at 100000 notes: chains with big images within 2.0x of `VACUUM INTO` + fsync, ")
            && markdown.contains("peak memory under 60 MB: not measured in this run"))
        // Sizes 2x apart say nothing about growth in N: no verdict on them.
        #expect(markdown.contains("Peak memory flat in N and under 60 MB (judged on sizes 100x apart or more): not measured in this run"))
    }

    @Test("migrations alone prints the Migrations rows and issue 37's verdicts at the sizes it ran, nothing else, and removes its stores")
    func migrationsAlone() throws {
        let folder = try TemporaryFolder()
        let work = folder.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let printed = folder.url.appendingPathComponent("printed.md")
        let run = try runBench(["migrations", "--sizes", "60", "--images", "small", "--runs", "1", "--work", work.path], output: printed)
        #expect(run.status == 0, "\(run.errorOutput)")
        let text = try String(contentsOf: printed, encoding: .utf8)
        #expect(text.contains("| VACUUM INTO + new indexes | engine / that |") && text.contains("| 60 | none | **v1 -> v5** |")
            && text.contains("| 60 | small | **v2 -> v5** |") && !text.contains("| big |"))
        #expect(text.contains("Issue 37 at 60 notes, every chain at most 1.0x the in-place SQL: v1 -> v5 (none images) ")
            && text.contains("Issue 37 at 60 notes, every chain with big images within 2.0x of `VACUUM INTO` + fsync: not measured"))
        #expect(!text.contains("at 100000 notes") && !text.contains("## Read paths"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty)
    }

    @Test("an unknown image kind is refused with a one-line error before any store is made")
    func unknownImageKind() throws {
        let folder = try TemporaryFolder()
        let work = folder.url.appendingPathComponent("work")
        let run = try runBench(["--sizes", "60", "--images", "huge", "--output", folder.url.path, "--work", work.path])
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("--images takes small, big or both"))
        #expect(!FileManager.default.fileExists(atPath: work.path))
    }
}
