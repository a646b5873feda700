import Foundation
import Processes

/// A terminfo entry like the terminal's, without what ncurses scrolls rows with: ncurses scrolls
/// rows that moved with a scrolling region and a newline (or inserts and deletes lines), and the
/// terminal moves a sixel or iTerm2 picture in those cells along, cutting it. Whether ncurses
/// scrolls at all it decides from the capabilities when it starts, and its API cannot change that
/// later; so for those pictures it starts on this entry, compiled by `tic` into a private folder
/// and read once. Without `tic` the app starts as usual and redraws pictures more often.
enum StillCellsTerminfo {
    /// The capabilities ncurses moves rows with.
    static let removed = ["csr", "ind", "ri", "indn", "rin", "il", "il1", "dl", "dl1", "wind"]

    /// The entry's source: `name` with those capabilities cancelled.
    static func source(basedOn name: String, named newName: String) -> String {
        "\(newName)|\(name) without scrolling,\n\t" + removed.map { "\($0)@, " }.joined() + "use=\(name),\n"
    }

    /// Compiles the entry into a new 0700 folder; nil when it cannot (no `tic`, an entry `tic`
    /// cannot read). The caller starts ncurses with `TERMINFO` set to the folder, then removes it.
    static func compile(basedOn name: String) -> (folder: URL, name: String)? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-terminfo-\(UUID().uuidString.prefix(8))")
        let newName = "\(name)-stillcells"
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let sourceFile = folder.appendingPathComponent("entry.src")
            try Data(source(basedOn: name, named: newName).utf8).write(to: sourceFile)
            guard let tic = Command.find("tic", path: ProcessInfo.processInfo.environment["PATH"]),
                  try ProcessRunner.run(Command(tic, ["-x", "-o", folder.path, sourceFile.path])).termination == .exited(0) else {
                throw CocoaError(.fileWriteUnknown)
            }
            return (folder, newName)
        } catch {
            // Without the entry the app runs as before; the folder is removed best effort.
            try? FileManager.default.removeItem(at: folder)
            return nil
        }
    }
}
