import Foundation

/// The program's arguments after its name, as the command line gave them.
///
/// A statically linked Swift program finds its arguments through `/proc/self/maps`; when the
/// system refuses that file (an I/O error), `CommandLine.arguments` is empty and the program
/// would run as if given none: the full-screen app instead of the command asked for (seen with
/// strace's fault injection). `/proc/self/cmdline` holds the same arguments.
enum ProgramArguments {
    static func afterProgramName(reported: [String] = CommandLine.arguments,
                                 commandLineFile: String = "/proc/self/cmdline") throws -> [String] {
        guard reported.isEmpty else { return Array(reported.dropFirst()) }
        guard let data = FileManager.default.contents(atPath: commandLineFile), !data.isEmpty else {
            throw CommandFailure("cannot read the command line (the system refused \(commandLineFile)); nothing was done")
        }
        // Each argument ends with a NUL; an empty argument is an empty field.
        let fields = data.split(separator: 0, omittingEmptySubsequences: false).dropLast()
        return fields.dropFirst().map { String(decoding: $0, as: UTF8.self) }
    }
}
