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
              uncloudnotes walkthrough --dir ~/chapter --step 2     stop after step 2, inspect the v2 store
              uncloudnotes walkthrough --interactive               open the app at each version
            """)

    @Option(help: ArgumentHelp("A new or empty folder for the stores. Default: a new folder under the system's temporary folder.", valueName: "folder"))
    var dir: String?
    @Option(help: ArgumentHelp("Stop after this step (1-5), leaving the store for inspection.", valueName: "n"))
    var step = 5
    @Flag(help: "Open the terminal app at each version, to add notes by hand (q goes on).") var interactive = false

    func validate() throws {
        guard (1...5).contains(step) else { throw ValidationError("--step must be 1 to 5") }
    }

    func run() throws {
        let folder: URL
        if let dir {
            folder = fileURL(dir)
            let existing = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            guard existing.isEmpty else { throw CommandFailure("\(folder.path): not empty; the walkthrough needs a new or empty folder") }
        } else {
            let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-walkthrough-\(stamp)")
        }
        let openApp: ((UnCloudNotesStack) throws -> Void)? = interactive ? { try runFullScreen($0) } : nil
        try Walkthrough(folder: folder, interactive: openApp) { print($0) }.run(through: step)
    }
}

struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Open a copy of a store written by the v1, v2 or v3 app, and watch it upgrade.",
        discussion: """
            Examples:
              uncloudnotes sample open v1
            """,
        subcommands: [SampleOpenCommand.self])
}

struct SampleOpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Copy a sample store to a working folder and open the app on the copy.",
        discussion: """
            The shipped samples are never changed: the app works on a copy, in \
            $XDG_DATA_HOME/uncloudnotes/samples/ unless --dir says otherwise. An existing copy is \
            opened again (with what you added to it); --fresh starts from the sample anew.

            Examples:
              uncloudnotes sample open v1
              uncloudnotes sample open v2 --fresh
              uncloudnotes --model-version v3 sample open v1     upgrade only as far as v3
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "v1, v2 or v3.") var version: String
    @Option(help: ArgumentHelp("Where to put the working copy.", valueName: "folder")) var dir: String?
    @Flag(help: "Replace an existing working copy with a new copy of the sample.") var fresh = false

    func validate() throws {
        guard ["v1", "v2", "v3"].contains(version) else { throw ValidationError("the samples are v1, v2 and v3") }
    }

    func run() throws {
        let folder = dir.map(fileURL)
            ?? StoreLocation.defaultURL().deletingLastPathComponent().appendingPathComponent("samples/\(version)")
        let copy = folder.appendingPathComponent(StoreLocation.fileName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if fresh { StoreFilesCleaner.removeStore(at: copy) }
        if !FileManager.default.fileExists(atPath: copy.path) {
            try FileManager.default.copyItem(at: UnCloudNotesResources.url(named: "SampleStores/\(version).sqlite"), to: copy)
            FileHandle.standardError.write(Data("copied the \(version) sample to \(copy.path)\n".utf8))
        }
        try runFullScreen(UnCloudNotesStack(storeURL: copy, versionName: global.modelVersion, options: global.storeOptions))
    }
}

/// Removes a working copy and its companions (`-wal`, `-shm`, lock, backups).
enum StoreFilesCleaner {
    static func removeStore(at url: URL) {
        let folder = url.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(url.lastPathComponent) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
