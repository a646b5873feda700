import ArgumentParser
import Foundation
import NotesSync
import UnCloudNotesKit

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the notes with other machines through any git remote.",
        usage: """
            uncloudnotes sync [--remote <url>] [--encrypt] [--dry-run] [<options>]
            uncloudnotes sync recipients <list|add|remove> [<age1...>] [<options>]
            """,
        discussion: """
            The store is mirrored into a git repository of plain files (one Markdown file per \
            note, images named by their content's hash; docs/sync.md), by default \
            <store name>.mirror beside the store. Each sync commits the store's changes since the \
            last one (read from its persistent history), fetches and merges the remote, writes \
            what the merge changed into the store in one transaction, and pushes. Give --remote \
            the first time; git's own ssh keys and credential helpers reach it. Edits of \
            different parts of a note merge; where both machines changed the same part, the \
            note keeps this machine's version and the other becomes a new note titled \
            "<title> (conflict from <machine>)". Sync needs model v5 (notes with identifiers).

            With --encrypt, every note and image file is encrypted with age before it is \
            committed, so the remote holds nothing it can read (docs/sync.md says what it still \
            sees). This machine's key is made on first need in \
            $XDG_CONFIG_HOME/uncloudnotes/age-identity.txt (or give --identity); another machine \
            is told its own key when it first syncs, to add with `sync recipients add`.

            Examples:
              uncloudnotes sync --remote git@example.org:me/notes.git
              uncloudnotes sync --remote git@example.org:me/notes.git --encrypt
              uncloudnotes sync
              uncloudnotes sync --dry-run --json
              uncloudnotes sync recipients add age1...
            """,
        subcommands: [SyncRecipientsCommand.self])

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("The git remote to sync with (any URL git takes); remembered for the next syncs.", valueName: "url"))
    var remote: String?
    @Option(help: ArgumentHelp("This machine's name, as commits and conflict copies show it; remembered for the next syncs. Default: the host name.", valueName: "name"))
    var machine: String?
    @Flag(help: "Encrypt the mirror's files with age from now on (a plain mirror is converted in this sync).") var encrypt = false
    @OptionGroup var keys: SyncKeyOptions
    @OptionGroup var preview: SyncDryRun
    @OptionGroup var format: OutputFormat

    func validate() throws {
        if encrypt && preview.dryRun { throw ValidationError("--encrypt changes the mirror; leave out --dry-run") }
        if let remote, remote.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--remote must not be empty") }
        if let machine, machine.isEmpty || machine.contains(where: { $0 == "<" || $0 == ">" || $0.isNewline }) {
            throw ValidationError("--machine must be a name without <, > or line breaks")
        }
    }

    func run() throws {
        let synchronizer = try keys.synchronizer(global: global, machine: machine)
        // A remote that is a folder here is named by its absolute path: git runs in the mirror.
        let remoteURL = remote.map { FileManager.default.fileExists(atPath: expandingTilde($0)) ? fileURL($0).path : $0 }
        let report = preview.dryRun ? try synchronizer.dryRun(remote: remoteURL) : try synchronizer.sync(remote: remoteURL, encrypt: encrypt)
        try format.print(report)
    }
}

/// `--dry-run`, for `sync` and `sync recipients add/remove`. One type for all: the parser hands
/// a subcommand the group its parent decoded, so a flag declared twice would go to the parent.
struct SyncDryRun: ParsableArguments {
    @Flag(help: "Say what would be sent, received or re-encrypted, changing nothing.") var dryRun = false
}

/// The mirror and key options `sync` and `sync recipients` share.
struct SyncKeyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The mirror repository's folder. Default: <store name>.mirror beside the store.", valueName: "path"))
    var mirror: String?
    @Option(help: ArgumentHelp("This machine's age identity file (as age-keygen writes it); remembered for the next syncs. Default: $XDG_CONFIG_HOME/uncloudnotes/age-identity.txt, made on first need.", valueName: "file"))
    var identity: String?

    /// `creatingStore`: a first sync may fill a new store; `recipients` needs an existing one.
    func synchronizer(global: GlobalOptions, machine: String?, creatingStore: Bool = true) throws -> Synchronizer {
        let book = try global.openNoteBook(creating: creatingStore)
        let folder = mirror.map(fileURL) ?? Synchronizer.defaultMirror(for: global.storeURL())
        return Synchronizer(book: book, mirror: folder, machine: machine, identity: identity.map(fileURL))
    }
}

extension OutputFormat {
    /// A sync report as JSON, or as its lines.
    func print(_ report: SyncReport) throws {
        if json {
            try printJSON(report)
        } else {
            try report.lines.map(TerminalText.field).forEach(StandardOutput.line)
        }
    }
}
