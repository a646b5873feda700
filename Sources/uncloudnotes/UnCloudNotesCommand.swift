import ArgumentParser

/// The root command. Subcommands do the work; this type only lists them.
struct UnCloudNotesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uncloudnotes",
        abstract: "Notes in your terminal, on a Core Data-style store that upgrades itself.",
        discussion: """
            A Linux port of UnCloudNotes, the notes app of the Core Data "Versioning and \
            Migration" chapter.

            Examples:
              uncloudnotes store info                     the store: version, counts, plan
              uncloudnotes store migrate old.sqlite       upgrade a store step by step
              uncloudnotes model show                     the app's model versions and hashes
            """,
        subcommands: [NotesCommand.self, StoreCommand.self, ModelCommand.self])

    @OptionGroup var global: GlobalOptions
}
