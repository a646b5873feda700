import ArgumentParser
import Foundation
import Logging
import ManagedStore
import UnCloudNotesKit

/// Runs the command line with the exit codes scripts rely on: 0 success, 1 an error while doing
/// the work (one line on stderr), 2 a usage error (message and usage on stderr). Success needs
/// the output to have been written: a command whose output could not be written exits 1.
func runCommandLine() -> Never {
    var command: ParsableCommand
    do {
        command = try UnCloudNotesCommand.parseAsRoot(ProgramArguments.afterProgramName())
    } catch {
        exitReporting(error)
    }
    do {
        try command.run()
        try StandardOutput.finish()
        exit(0)
    } catch {
        // Usage errors found while running (an empty pipe, an unknown --model-version) are shown
        // with this command's usage, not the root's.
        if let usage = usageError(error) {
            StandardError.line(CommandUsage(of: type(of: command)).message(for: usage))
            exit(2)
        }
        exitReporting(error)
    }
}

/// The usage error an error thrown by a running command is, if it is one.
func usageError(_ error: Error) -> ValidationError? {
    switch error {
    case let validation as ValidationError: validation
    case let unknown as MigrationError:
        if case .unknownVersionName = unknown { ValidationError(unknown.description) } else { nil }
    default: nil
    }
}

func exitReporting(_ error: Error) -> Never {
    if let code = error as? ExitCode {
        exit(code.rawValue)
    }
    switch UnCloudNotesCommand.exitCode(for: error) {
    case .success:
        // Help, --version, completion scripts and the dump for the manual: output like any other.
        do {
            try StandardOutput.line(UnCloudNotesCommand.fullMessage(for: error))
            try StandardOutput.finish()
            exit(0)
        } catch {
            exitReporting(error)
        }
    case .validationFailure:
        // The arguments parsed once already; were they unreadable now, the parser's own words stand.
        StandardError.line(NegativeNumberArgument.reworded(UnCloudNotesCommand.fullMessage(for: error),
                                                           arguments: (try? ProgramArguments.afterProgramName()) ?? []))
        exit(2)
    default:
        // Messages echo paths and text the user gave: one line, shown visibly, never as terminal controls.
        StandardError.line("uncloudnotes: \(TerminalText.field(commandLineMessage(for: error)))")
        exit(1)
    }
}

/// The one-line message for an error: the app's own, or for the cases a command can help with,
/// the command that helps.
func commandLineMessage(for error: any Error) -> String {
    switch error as? NoteBookError {
    case .noSuchNote(let id)?:
        "there is no note \(id) (see uncloudnotes notes list)"
    case .noteHasItsImage(let id, let version)?:
        "note \(id) already has its one image (\(version) holds one per note); nothing was changed: "
            + "add --replace to replace it, or run as v3 or later for more"
    default:
        ErrorText.oneLine(error)
    }
}

// Logs (the SQL debug log among them) go to stderr, so they never mix with a command's output.
LoggingSystem.bootstrap(StreamLogHandler.standardError)
NonUTF8Notice.checkArguments()
runCommandLine()
