import Foundation
import Processes
import UnCloudNotesKit

/// The user's editor (`$VISUAL`, else `$EDITOR`, else `vi`), run the way `git commit` runs it, for
/// `notes add`/`notes edit` at a terminal and for the full-screen app's Ctrl-E alike.
///
/// The editor runs in this process's own process group, the terminal's foreground group, as a
/// shell's `$EDITOR file` would (`Command.Terminal.foreground`): in a group of its own an editor
/// that reads the terminal is stopped (SIGTTIN) or reads nothing. While it runs, Ctrl-C and
/// Ctrl-\ are the editor's: this process ignores them, as `system(3)` does.
public struct ExternalEditor: Sendable {
    /// Why the editor gave nothing to use. Nothing typed is lost: text a failed editor left in the
    /// draft is kept in the drafts folder, and named.
    public enum Failure: Error, CustomStringConvertible {
        /// The editor could not be started (`sh` missing or not executable).
        case cannotStart(command: String, ProcessFailure)
        /// The editor exited with an error. `keptDraft` is the file holding the text it left, when
        /// that differs from the text it was given; nil when there was nothing new to keep.
        case failed(command: String, status: Int32, keptDraft: URL?)
        /// The temporary file for the editor could not be written.
        case cannotWriteDraft(URL, underlying: Error)
        /// What the editor saved could not be read back.
        case cannotReadDraft(URL, underlying: Error)

        /// One line saying what the editor did and where the draft was kept.
        public var description: String {
            switch self {
            case .cannotStart(let command, let failure):
                "cannot start the editor \"\(command)\" (\(failure.reason)); set $VISUAL or $EDITOR"
            case .failed(let command, let status, let kept?):
                "the editor \"\(command)\" exited with status \(status); nothing was written, your text is kept in \(kept.path)"
            case .failed(let command, 127, nil):
                "cannot run the editor \"\(command)\" (the shell found no such command, status 127); set $VISUAL or $EDITOR"
            case .failed(let command, let status, nil):
                "the editor \"\(command)\" exited with status \(status); nothing was written (the text was not changed)"
            case .cannotWriteDraft(let url, let underlying):
                "cannot write the draft \(url.path) for the editor (\(underlying.localizedDescription))"
            case .cannotReadDraft(let url, let underlying):
                "cannot read the edited draft back from \(url.path) (\(underlying.localizedDescription)); it is kept there"
            }
        }
    }

    /// The command line of the editor; run by `sh`, so `EDITOR="vim -u NONE"` works.
    public let command: String
    /// Where the text of a failed editor run is kept (`<data folder>/drafts`), private to the user.
    public let draftsFolder: URL

    /// An editor run as `command`, keeping failed runs' text in `draftsFolder`.
    public init(command: String, draftsFolder: URL) {
        self.command = command
        self.draftsFolder = draftsFolder
    }

    /// The editor the environment names, as git chooses it, keeping drafts in the data folder.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ExternalEditor {
        let named = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty }
        return ExternalEditor(command: named ?? "vi", draftsFolder: StoreLocation.draftsFolder(environment: environment))
    }

    /// Lets the user edit `text` in a private temporary file and returns what they saved. The
    /// temporary file is always removed: when the editor fails (never started, `:cq`, a crash)
    /// text it left that differs from `text` is first kept in `draftsFolder`, so nothing typed is
    /// lost and nothing piles up. `handOver` wraps the editor's run: the full-screen app leaves
    /// its screen there.
    public func edit(_ text: String, fileName: String = "note.txt",
                     handOver: (() throws -> Int32) throws -> Int32 = { try $0() }) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-\(UUID().uuidString)")
        let draft = folder.appendingPathComponent(fileName)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: draft.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            try? FileManager.default.removeItem(at: folder) // a folder made before the file failed
            throw Failure.cannotWriteDraft(draft, underlying: error)
        }
        var keepsTemporaryFolder = false
        // Removing the private temporary folder can only fail if it is already gone.
        defer { if !keepsTemporaryFolder { try? FileManager.default.removeItem(at: folder) } }
        let status = try handOver { try run(on: draft) }
        let left: Data
        do {
            left = try Data(contentsOf: draft)
        } catch {
            // A failed editor that took its file away left nothing to keep.
            guard status == 0 else { throw Failure.failed(command: command, status: status, keptDraft: nil) }
            keepsTemporaryFolder = true
            throw Failure.cannotReadDraft(draft, underlying: error)
        }
        guard status == 0 else {
            guard left != Data(text.utf8) else { throw Failure.failed(command: command, status: status, keptDraft: nil) }
            let kept: URL
            do {
                kept = try Drafts.keep(left, named: fileName, in: draftsFolder)
            } catch {
                keepsTemporaryFolder = true // the drafts folder refused it: the text stays where it is
                kept = draft
            }
            throw Failure.failed(command: command, status: status, keptDraft: kept)
        }
        guard let edited = String(data: left, encoding: .utf8) else {
            keepsTemporaryFolder = true
            throw Failure.cannotReadDraft(draft, underlying: CocoaError(.fileReadInapplicableStringEncoding))
        }
        return edited
    }

    /// Runs `sh -c '<command> "$1"' sh <file>` in the foreground and waits: its exit status, or
    /// 128 + n after signal n (a shell that cannot find the editor exits with 127).
    private func run(on file: URL) throws -> Int32 {
        let shell = Command("/bin/sh", ["-c", "\(command) \"$1\"", "sh", file.path],
                            input: .inherited, output: .inherited, error: .inherited, terminal: .foreground)
        do {
            return try ProcessRunner.run(shell).termination.status
        } catch {
            throw Failure.cannotStart(command: command, error)
        }
    }
}
