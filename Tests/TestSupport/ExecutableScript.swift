import Foundation

/// A shell script written for tests to run as a program (a wrapper, a hook, an editor).
public enum ExecutableScript {
    /// Writes `text` to `file`, mode 0700. The file is opened close-on-exec: a process that
    /// another test spawns while it is open must not inherit a writer, or running the script
    /// fails with ETXTBSY ("text file busy"), as a kill storm once saw on its first git.
    public static func write(_ text: String, to file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o700)
        guard descriptor >= 0 else { throw SpawnedProcess.SpawnError(description: "cannot write \(file.path): errno \(errno)") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let closed = close(descriptor)
        guard written == bytes.count, closed == 0, chmod(file.path, 0o700) == 0 else {
            throw SpawnedProcess.SpawnError(description: "cannot write \(file.path): errno \(errno)")
        }
    }
}
