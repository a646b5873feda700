import Foundation
import Processes
import UnCloudNotesKit

/// Opens an image in the system's viewer (`xdg-open`), for `o` in a note: the image is written to
/// a private file (0600, in a 0700 folder of the temporary directory, replaced on the next open of
/// the same name) and the viewer started in a session of its own with no terminal, so it can
/// neither read the app's keys nor draw over its screen. The app does not wait for it.
public enum ImageViewer {
    /// What happened, as the status line says it.
    public static func open(_ data: Data, named name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard let opener = Command.find("xdg-open", path: environment["PATH"]) else {
            return "cannot open the image: xdg-open is not installed (the xdg-utils package); uncloudnotes notes image saves it to a file"
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-\(getuid())-images")
        let file = folder.appendingPathComponent(name)
        do {
            try PrivateFiles.makeFolder(folder)
            try PrivateFiles.write(data, to: file)
        } catch {
            return "cannot open the image: \(error)"
        }
        do {
            // Standard streams on /dev/null, in a session of its own: it can neither read the
            // app's keys nor draw over its screen.
            try ProcessRunner.start(Command(opener, [file.path], terminal: .newSession))
            return "opening \(name) with xdg-open"
        } catch {
            return "cannot start xdg-open (\(error.reason))"
        }
    }
}
