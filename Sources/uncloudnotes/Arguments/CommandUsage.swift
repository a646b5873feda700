import ArgumentParser

/// How a command is used, for usage errors found once it runs: ArgumentParser words only the
/// errors it finds itself with the command's usage, and shows the root's for the others.
struct CommandUsage {
    let command: ParsableCommand.Type

    init(of command: ParsableCommand.Type) {
        self.command = command
    }

    /// The error worded as ArgumentParser words its own: message, usage, where to read more.
    func message(for error: ValidationError) -> String {
        let names = Self.names(to: command, from: UnCloudNotesCommand.self) ?? [UnCloudNotesCommand._commandName]
        return """
            Error: \(error.message)
            Usage: \(UnCloudNotesCommand.usageString(for: command))
              See '\(names.joined(separator: " ")) --help' for more information.
            """
    }

    /// The command names from `parent` down to `command`, nil when it is not under `parent`.
    private static func names(to command: ParsableCommand.Type, from parent: ParsableCommand.Type) -> [String]? {
        if ObjectIdentifier(parent) == ObjectIdentifier(command) { return [parent._commandName] }
        for subcommand in parent.configuration.subcommands {
            if let path = names(to: command, from: subcommand) { return [parent._commandName] + path }
        }
        return nil
    }
}
