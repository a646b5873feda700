import Foundation
import UnCloudNotesKit

/// Says on stderr, once per source, when text the user gave was not UTF-8 (a Latin-1 title
/// under `LANG=C`, a pipe from a legacy file): Swift turns such bytes into U+FFFD, and the
/// command goes on with that text, but never silently.
enum NonUTF8Notice {
    /// Checks the raw command line, which `CommandLine.arguments` has already decoded.
    /// The runtime may have no arguments at all (it could not read them: `ProgramArguments`).
    static func checkArguments() {
        let replaced = (1..<max(1, Int(CommandLine.argc))).reduce(0) { count, index in
            guard let argument = CommandLine.unsafeArgv[index] else { return count }
            return count + DecodedText(utf8: UnsafeRawBufferPointer(start: argument, count: strlen(argument))).replacedBytes
        }
        report(replaced, in: "the arguments")
    }

    /// The bytes as text, saying on stderr how many were not UTF-8.
    static func decoded(_ bytes: Data, from source: String) -> String {
        let decoded = DecodedText(utf8: bytes)
        report(decoded.replacedBytes, in: source)
        return decoded.text
    }

    private static func report(_ replaced: Int, in source: String) {
        guard replaced > 0 else { return }
        let message = "uncloudnotes: replaced \(replaced.counting("byte")) that \(replaced == 1 ? "is" : "are") not UTF-8 in \(source) "
            + "by U+FFFD; going on with that text"
        StandardError.line(message)
    }
}
