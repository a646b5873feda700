import Foundation

/// Finds the app's files shipped from the top-level `Resources/` folder (the versioned data model,
/// later the mapping models and sample stores).
///
/// SwiftPM copies them into a bundle folder beside the executable. The lookup is done here rather
/// than through the generated `Bundle.module`, which stops the program when the folder is missing;
/// this reports a clear error instead, and `UNCLOUDNOTES_RESOURCES` can point elsewhere.
public enum UnCloudNotesResources {
    public struct MissingResource: Error, CustomStringConvertible {
        public var name: String
        public var searched: [String]
        public var description: String {
            "cannot find the app's resource \(name) (looked in: \(searched.joined(separator: ", "))); "
                + "set UNCLOUDNOTES_RESOURCES to the project's Resources folder"
        }
    }

    static let bundleFolderName = "UnCloudNotes_UnCloudNotesResources.resources"

    /// The URL of a resource by file name, e.g. `UnCloudNotesDataModel.xcdatamodeld`.
    public static func url(named name: String) throws -> URL {
        let candidates = searchFolders().map { $0.appendingPathComponent(name) }
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            return found
        }
        throw MissingResource(name: name, searched: candidates.map { $0.deletingLastPathComponent().path })
    }

    private static func searchFolders() -> [URL] {
        var folders: [URL] = []
        if let override = ProcessInfo.processInfo.environment["UNCLOUDNOTES_RESOURCES"], !override.isEmpty {
            folders.append(URL(fileURLWithPath: override))
        }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(executable.deletingLastPathComponent().appendingPathComponent(bundleFolderName))
        }
        return folders
    }
}
