import Foundation
import UnCloudNotesKit

/// A path as the user typed it, with `~` expanded from `$HOME` as a shell would (see
/// `expandingTilde`): every path option of the command line goes through here.
func fileURL(_ path: String) -> URL {
    URL(fileURLWithPath: expandingTilde(path))
}
