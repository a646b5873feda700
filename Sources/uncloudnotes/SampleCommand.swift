import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit
import UnCloudNotesResources

struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Open a copy of a store written by the v1, v2, v3 or v4 app, and watch it upgrade.",
        discussion: """
            Examples:
              uncloudnotes sample open v1
              uncloudnotes sample open v4       a v4 store (captions) upgrading to v5
            """,
        subcommands: [SampleOpenCommand.self])
}

struct SampleOpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Copy a sample store to a working folder and open the app on the copy.",
        discussion: """
            The shipped samples are never changed: the app works on a copy, in \
            $XDG_DATA_HOME/uncloudnotes/samples/ unless --dir names another folder or --store the \
            copy's file. An existing copy is opened again (with what you added to it); --fresh \
            starts from the sample anew.

            Examples:
              uncloudnotes sample open v1
              uncloudnotes sample open v2 --fresh
              uncloudnotes sample open v4         watch v4 -> v5 (identifiers, pins, tags)
              uncloudnotes --model-version v3 sample open v1     upgrade only as far as v3
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "v1, v2, v3 or v4.") var version: String
    @Option(help: ArgumentHelp("Where to put the working copy.", valueName: "folder")) var dir: String?
    @Flag(help: "Replace an existing working copy with a new copy of the sample.") var fresh = false

    func validate() throws {
        guard ["v1", "v2", "v3", "v4"].contains(version) else { throw ValidationError("the samples are v1, v2, v3 and v4") }
        if global.store != nil, dir != nil {
            throw ValidationError("--store names the working copy's file and --dir its folder: give one of them")
        }
    }

    func run() throws {
        let copy = global.store.map(fileURL) ?? (dir.map(fileURL)
            ?? StoreLocation.defaultURL().deletingLastPathComponent().appendingPathComponent("samples/\(version)"))
            .appendingPathComponent(StoreLocation.fileName)
        try StoreLocation.createPrivateFolders(for: copy)
        let stack = try UnCloudNotesStack(storeURL: copy, versionName: global.modelVersion, options: global.storeOptions)
        if fresh { Self.removeWorkingCopy(of: stack) }
        if !FileManager.default.fileExists(atPath: copy.path) {
            // The copy is the user's store from now on: private (0600), like every store the app makes.
            try PrivateFiles.write(Data(contentsOf: UnCloudNotesResources.url(named: "SampleStores/\(version).sqlite")), to: copy)
            StandardError.line("copied the \(version) sample to \(TerminalText.field(copy.path))")
        }
        try runFullScreen(stack)
    }

    /// Removes a working copy by the exact names the app gives its files (the store and the search
    /// index, each with its `-wal` and `-shm`, the lock and each version's backup): nothing else in
    /// a folder the user chose with --dir is touched.
    private static func removeWorkingCopy(of stack: UnCloudNotesStack) {
        let store = stack.storeURL.path
        let search = TextSearchIndex.url(besideStoreAt: stack.storeURL)
        let names = (StoreFiles(url: stack.storeURL).all + StoreFiles(url: search).all).map(\.path) + [store + ".lock"]
            + stack.model.versions.map { stack.migrator.backupURL(for: $0).path }
        // Each is removed only when it is a file; one that is missing is simply not there.
        for name in names where (try? FileManager.default.attributesOfItem(atPath: name)[.type] as? FileAttributeType) == .typeRegular {
            try? FileManager.default.removeItem(atPath: name)
        }
    }
}
