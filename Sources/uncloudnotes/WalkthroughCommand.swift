import ArgumentParser
import Foundation
import NotesTerminalUI
import UnCloudNotesKit
import UnCloudNotesResources

struct WalkthroughCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walkthrough",
        abstract: "Replay the chapter on real stores: v1 notes, then v2, v3 and v4 migrations, then skipped versions.",
        discussion: """
            Steps: \(Walkthrough.stepTitles.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "; ")).

            Each step prints what the chapter's app printed (entity hashes, "Migrating store …", the \
            mapping model, "Migration Completed Successfully") and a table of the store's contents. \
            The stores are kept in the folder, printed at the end.

            Examples:
              uncloudnotes walkthrough
              uncloudnotes walkthrough --dir ~/chapter --step 2
                  stop after step 2, to inspect the v2 store
              uncloudnotes walkthrough --dir ~/chapter --continue
                  then go on with the steps left
              uncloudnotes walkthrough --interactive
                  open the app at each version, to add notes by hand
            """)

    @Option(help: ArgumentHelp("A new or empty folder for the stores (with --continue, the folder of the walkthrough to go on with). Default: a new folder under the system's temporary folder.", valueName: "folder"))
    var dir: String?
    // Unconditional, so that `--step -1` reaches the check below instead of "Missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this step (1-\(Walkthrough.stepCount)), leaving the store for inspection.", valueName: "n"))
    var step = Walkthrough.stepCount
    @Flag(name: .customLong("continue"), help: "Go on in --dir from the step after the last one done there (after an earlier --step).")
    var goOn = false
    @Flag(help: "Open the terminal app at each version, to add notes by hand (q goes on).") var interactive = false

    func validate() throws {
        guard (1...Walkthrough.stepCount).contains(step) else { throw ValidationError("--step must be 1 to \(Walkthrough.stepCount)") }
        if goOn, dir == nil { throw ValidationError("--continue needs --dir, the folder of the walkthrough to go on with") }
    }

    func run() throws {
        let folder = dir.map(fileURL) ?? Self.newTemporaryFolder()
        let openApp: ((UnCloudNotesStack, String) throws -> Void)? = interactive ? { try runFullScreen($0, banner: $1) } : nil
        let walkthrough = Walkthrough(folder: folder, interactive: openApp) { StandardOutput.writeKeepingFailure($0 + "\n") }
        let firstStep = try goOn ? nextStep(of: walkthrough) : Self.checkedEmpty(folder)
        try walkthrough.run(from: firstStep, through: step)
        if step < Walkthrough.stepCount { try howToGoOn(in: folder).forEach(StandardOutput.line) }
    }

    private static func newTemporaryFolder() -> URL {
        let stamp = Date().formatted(.iso8601).replacingOccurrences(of: ":", with: "")
        return FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-walkthrough-\(stamp)")
    }

    /// Step 1, in a folder that holds nothing yet (one that does not exist yet is empty).
    private static func checkedEmpty(_ folder: URL) throws -> Int {
        // A folder that cannot be listed (missing) counts as empty; creating it then reports any real problem.
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        guard existing.isEmpty else {
            throw CommandFailure("\(folder.path): not empty; the walkthrough needs a new or empty folder (--continue goes on with a walkthrough there)")
        }
        return 1
    }

    /// The step after the last one the walkthrough in the folder did, which must be at most `--step`.
    private func nextStep(of walkthrough: Walkthrough) throws -> Int {
        let path = walkthrough.folder.path
        let done = try walkthrough.stepsDone()
        guard done > 0 else {
            throw CommandFailure("\(path): no walkthrough to go on with; start one with uncloudnotes walkthrough --dir \(ShellQuoting.quoted(path))")
        }
        guard done < Walkthrough.stepCount else { throw CommandFailure("\(path): the walkthrough there has done all \(Walkthrough.stepCount) steps") }
        guard step > done else { throw CommandFailure("\(path): step \(step) is done already; the next one is step \(done + 1)") }
        return done + 1
    }

    /// The commands that go on after `--step` stopped the walkthrough early: the next step alone, and all the rest.
    private func howToGoOn(in folder: URL) -> [String] {
        let command = "uncloudnotes walkthrough --dir \(ShellQuoting.quoted(folder.path)) --continue" + (interactive ? " --interactive" : "")
        var lines = ["", "Stopped after step \(step) of \(Walkthrough.stepCount). To go on with step \(step + 1) (\(Walkthrough.stepTitles[step])):",
                     "  \(command)\(step + 1 < Walkthrough.stepCount ? " --step \(step + 1)" : "")"]
        if step + 1 < Walkthrough.stepCount { lines += ["or with every step left:", "  \(command)"] }
        return lines
    }
}
