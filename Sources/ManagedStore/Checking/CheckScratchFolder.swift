import Foundation

/// The temporary folder a check migrates its copies in. It is named after the process, so that
/// a check interrupted before it could remove its folder (Ctrl-C, a CI job's timeout) has it
/// removed by the next check, which sees that process gone.
enum CheckScratchFolder {
    static let prefix = "model-check-"

    /// A new folder's URL (not yet created), after removing those of checks no longer running.
    static func make(in parent: URL = FileManager.default.temporaryDirectory) -> URL {
        removeAbandoned(in: parent)
        return parent.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString)")
    }

    /// Removes the folders of checks whose process has ended.
    static func removeAbandoned(in parent: URL) {
        // An unreadable temporary directory only means nothing is swept; the check goes on.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let owner = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), !isRunning(owner) else { continue }
            // Another check may be sweeping the same folder: whoever removes it first wins.
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// Whether a process with this ID exists (one of another user's still counts).
    private static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }
}
