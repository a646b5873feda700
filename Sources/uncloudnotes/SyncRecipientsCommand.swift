import ArgumentParser
import Foundation
import NotesSync
import UnCloudNotesKit

/// `uncloudnotes sync recipients`: who can read an encrypted mirror.
struct SyncRecipientsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipients",
        abstract: "List, add or remove the keys an encrypted mirror is encrypted for.",
        discussion: """
            A machine that syncs with an encrypted remote without access is told its key \
            (age1…). Run `sync recipients add` with that key on a machine that has access: every \
            file is encrypted again for the new set, in one commit, and pushed. Removing a key \
            does the same for the others; the removed key can still read what the remote's \
            history held before.

            Examples:
              uncloudnotes sync recipients list
              uncloudnotes sync recipients add age1...
              uncloudnotes sync recipients remove age1...
            """,
        subcommands: [List.self, Add.self, Remove.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The mirror's recipients, this machine's marked.",
            discussion: """
                One public key (age1…) a line, as the mirror's .age-recipients lists them with a change not \
                yet pushed applied; "(this machine)" marks the key of this machine's identity.

                Examples:
                  uncloudnotes sync recipients list
                  uncloudnotes sync recipients list --json
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var keys: SyncKeyOptions
        @OptionGroup var format: OutputFormat

        func run() throws {
            let recipients = try keys.synchronizer(global: global, machine: nil, creatingStore: false).recipients()
            if format.json { return try printJSON(recipients) }
            for recipient in recipients { try StandardOutput.line(recipient.key + (recipient.isThisMachine ? "  (this machine)" : "")) }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Let another key read the mirror (re-encrypts every file, then syncs).",
            discussion: """
                Give the key the other machine's sync printed when it was refused (its identity's public \
                key; age-keygen -y FILE prints it for a key made by age). Every note and image file is \
                encrypted again for the new set of recipients, in one commit, and pushed; the other \
                machine's next sync then reads the remote. A key the remote lists that this machine never \
                accepted (one another machine added) is accepted the same way.

                Examples:
                  uncloudnotes sync recipients add age1...
                  uncloudnotes sync recipients add age1... --dry-run
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var keys: SyncKeyOptions
        @Argument(help: ArgumentHelp("The key to add, as the other machine's sync printed it.", valueName: "age1..."))
        var recipient: String
        @OptionGroup var preview: SyncDryRun
        @OptionGroup var format: OutputFormat

        func run() throws {
            let synchronizer = try keys.synchronizer(global: global, machine: nil, creatingStore: false)
            try format.print(try synchronizer.addRecipient(recipient, dryRun: preview.dryRun))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop encrypting for a key (re-encrypts every file, then syncs).",
            discussion: """
                Every note and image file is encrypted again for the remaining recipients, in one commit, \
                and pushed. The removed key can still read what the remote's history held before: to \
                leave that behind, start a new remote. This machine's own key and the last key cannot be \
                removed.

                Examples:
                  uncloudnotes sync recipients remove age1...
                  uncloudnotes sync recipients remove age1... --dry-run
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var keys: SyncKeyOptions
        @Argument(help: ArgumentHelp("The key to remove (see `sync recipients list`).", valueName: "age1..."))
        var recipient: String
        @OptionGroup var preview: SyncDryRun
        @OptionGroup var format: OutputFormat

        func run() throws {
            let synchronizer = try keys.synchronizer(global: global, machine: nil, creatingStore: false)
            try format.print(try synchronizer.removeRecipient(recipient, dryRun: preview.dryRun))
        }
    }
}
