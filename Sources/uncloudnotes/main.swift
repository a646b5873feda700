import ArgumentParser
import Foundation
import Logging
import ManagedStore
import UnCloudNotesKit

/// Runs the command line with the exit codes scripts rely on: 0 success, 1 an error while doing
/// the work (one line on stderr), 2 a usage error (message and usage on stderr).
func runCommandLine() -> Never {
    do {
        var command = try UnCloudNotesCommand.parseAsRoot(ProgramArguments.afterProgramName())
        try command.run()
        exit(0)
    } catch {
        exitReporting(error)
    }
}

func exitReporting(_ error: Error) -> Never {
    if let code = error as? ExitCode {
        exit(code.rawValue)
    }
    switch UnCloudNotesCommand.exitCode(for: error) {
    case .success:
        // Help and version requests: ArgumentParser prints them.
        UnCloudNotesCommand.exit(withError: error)
    case .validationFailure:
        FileHandle.standardError.write(Data((UnCloudNotesCommand.fullMessage(for: error) + "\n").utf8))
        exit(2)
    default:
        // Messages echo paths and text the user gave: one line, shown visibly, never as terminal controls.
        FileHandle.standardError.write(Data("uncloudnotes: \(TerminalText.field(commandLineMessage(for: error)))\n".utf8))
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
runCommandLine()
