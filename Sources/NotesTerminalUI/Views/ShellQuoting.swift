import Foundation

/// Paths in commands the user is told to run, quoted for a POSIX shell when they need it (the
/// screens and the command line tell people what to run next).
public enum ShellQuoting {
    public static func quoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+,:@%".unicodeScalars.contains($0) }
        return plain && !path.isEmpty ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
