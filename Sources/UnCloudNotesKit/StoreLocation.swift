import Foundation
import ManagedStore

/// Where the notes store lives by default: the XDG data folder.
public enum StoreLocation {
    public static let fileName = "UnCloudNotesDataModel.sqlite"

    /// `$XDG_DATA_HOME/uncloudnotes/UnCloudNotesDataModel.sqlite`, with `~/.local/share` when
    /// `XDG_DATA_HOME` is unset or not absolute (as the XDG specification says).
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = URL(fileURLWithPath: data)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/share")
        }
        return base.appendingPathComponent("uncloudnotes").appendingPathComponent(fileName)
    }

    /// `<data folder>/drafts`: where text from an editor that failed is kept (`ExternalEditor`).
    public static func draftsFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        defaultURL(environment: environment).deletingLastPathComponent().appendingPathComponent("drafts")
    }

    /// Creates the folders a new store needs, each missing one private to the user (0700): notes
    /// are nobody else's business. Existing folders are left as they are.
    public static func createPrivateFolders(for storeURL: URL) throws {
        var missing: [URL] = []
        var folder = storeURL.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.path), folder.path != "/" {
            missing.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        for folder in missing.reversed() where mkdir(folder.path, 0o700) != 0 && errno != EEXIST {
            throw StoreLocationError.cannotCreateFolder(path: folder.path, .lastSystemError)
        }
    }
}

/// Why the app's store is not where it should be, or cannot be put there: the path and the
/// cause, with a message that says what to do.
public enum StoreLocationError: Error, Equatable, CustomStringConvertible {
    /// A command that only reads found no store: nothing was created.
    case noSuchStore(path: String)
    /// A folder on the way to a new store could not be made.
    case cannotCreateFolder(path: String, FailureCause)

    public var description: String {
        switch self {
        case .noSuchStore(let path):
            "\(path): no such store: check the path (--store); adding a note creates a new store"
        case .cannotCreateFolder(let path, let cause):
            "\(path): cannot create the folder for the store (\(cause)): check the path and its permissions"
        }
    }
}
