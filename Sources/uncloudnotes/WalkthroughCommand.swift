import ArgumentParser
import Foundation
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
              uncloudnotes walkthrough --interactive
                  open the app at each version, to add notes by hand
            """)

    @Option(help: ArgumentHelp("A new or empty folder for the stores. Default: a new folder under the system's temporary folder.", valueName: "folder"))
    var dir: String?
    // Unconditional, so that `--step -1` reaches the check below instead of "Missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this step (1-5), leaving the store for inspection.", valueName: "n"))
    var step = 5
    @Flag(help: "Open the terminal app at each version, to add notes by hand (q goes on).") var interactive = false

    func validate() throws {
        guard (1...5).contains(step) else { throw ValidationError("--step must be 1 to 5") }
    }

    func run() throws {
        let folder: URL
        if let dir {
            folder = fileURL(dir)
            // A folder that does not exist yet is empty.
            let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            guard existing.isEmpty else { throw CommandFailure("\(folder.path): not empty; the walkthrough needs a new or empty folder") }
        } else {
            let stamp = Date().formatted(.iso8601).replacingOccurrences(of: ":", with: "")
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-walkthrough-\(stamp)")
        }
        let openApp: ((UnCloudNotesStack, String) throws -> Void)? = interactive ? { try runFullScreen($0, banner: $1) } : nil
        try Walkthrough(folder: folder, interactive: openApp) { StandardOutput.writeKeepingFailure($0 + "\n") }.run(through: step)
    }
}
