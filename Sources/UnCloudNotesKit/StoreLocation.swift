import Foundation

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
}
