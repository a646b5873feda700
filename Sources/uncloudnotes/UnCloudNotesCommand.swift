import ArgumentParser
import Foundation
import NotesTerminalUI
import UnCloudNotesKit

/// The root command: the full-screen app, or one of the subcommands.
struct UnCloudNotesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uncloudnotes",
        abstract: "Notes in your terminal, on a Core Data-style store that upgrades itself.",
        discussion: """
            A Linux port of UnCloudNotes, the notes app of the Core Data "Versioning and \
            Migration" chapter. Without a subcommand it opens the full-screen app on the \
            store (press ? there for its keys).

            Examples:
              uncloudnotes store info                     the store: version, counts, plan
              uncloudnotes store migrate old.sqlite       upgrade a store step by step
              uncloudnotes model show                     the model versions and hashes
            """,
        version: "uncloudnotes 0.1.0",
        subcommands: [NotesCommand.self, StoreCommand.self, ModelCommand.self, SyncCommand.self, WalkthroughCommand.self, SampleCommand.self])

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp(
        "While the full-screen app runs, write what would go to stderr (the --sql-debug log) to this file.",
        valueName: "file"))
    var log: String?

    @Option(name: .long, help: ArgumentHelp(
        "How previews draw images: auto (ask the terminal), kitty, sixel, iterm2, symbols or none. Default: the config file's images, else auto.",
        valueName: "mode"))
    var images: ImageMode?

    /// With no subcommand: the full-screen app. `--sql-debug` lines would write over it, so they
    /// need a file.
    func run() throws {
        if global.sqlDebug && log == nil {
            throw ValidationError("--sql-debug with the full-screen app needs --log FILE (the log would write over the screen)")
        }
        DateText.userLocale.prepareInBackground()
        // A store path typed by hand may be mistyped: a missing one is created only when the user says so.
        try runFullScreen(global.stack(), logFile: log.map(fileURL), askBeforeCreating: global.store != nil, images: imageMode(option: images),
                          sync: SyncSetting.fromConfigFile())
    }
}

/// Runs the full-screen app with the command line's exit codes: 2 (and one line on stderr)
/// without a usable terminal, 1 after a failed upgrade or a failed sync on quit, 130 after a
/// cancelled upgrade.
func runFullScreen(_ stack: UnCloudNotesStack, logFile: URL? = nil, askBeforeCreating: Bool = false, banner: String? = nil,
                   images: ImageMode? = nil, sync: SyncSetting = .off) throws {
    let code: Int32
    let images = try images ?? imageMode(option: nil)
    do {
        code = try FullScreenApp.run(stack: stack, logFile: logFile, askBeforeCreating: askBeforeCreating, banner: banner, images: images,
                                     syncOnOpen: sync.onOpen)
    } catch let error as TerminalUnavailable {
        StandardError.line("uncloudnotes: \(error)")
        throw ExitCode(2)
    }
    if code != 0 { throw ExitCode(code) }
    // A store the user chose not to create has nothing to sync.
    if sync.onQuit, stack.storeExists { try SyncSetting.syncOnQuit(stack) }
}
