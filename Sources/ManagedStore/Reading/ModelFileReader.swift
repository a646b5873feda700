import Foundation

/// Loads data models from the files Xcode writes: a versioned `.xcdatamodeld` folder (one
/// `.xcdatamodel` per version plus `.xccurrentversion`) or a single `.xcdatamodel`; or from the
/// compiled models Xcode builds from them (a `.momd` folder or a single `.mom`).
public enum ModelFileReader {
    /// Reads any kind of model path; a single `.xcdatamodel` or `.mom` becomes a one-version model.
    public static func read(at url: URL) throws -> VersionedModel {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ModelError(file: url.path, reason: .noSuchFileOrFolder)
        }
        switch url.pathExtension {
        case "xcdatamodeld":
            return try readVersioned(at: url)
        case "xcdatamodel":
            let version = try readVersion(at: url)
            return try VersionedModel(name: version.name, versions: [version],
                                      currentVersionName: version.name, sourceName: url.path)
        case "momd":
            try requireDirectory(url)
            return try CompiledModelReader.readVersioned(at: url)
        case "mom":
            let version = try CompiledModelReader.readVersion(at: url)
            return try VersionedModel(name: version.name, versions: [version],
                                      currentVersionName: version.name, sourceName: url.path)
        default:
            throw ModelError(file: url.path, reason: .notAModelPath)
        }
    }

    /// Reads every version of a `.xcdatamodeld` folder and which one is current.
    public static func readVersioned(at url: URL) throws -> VersionedModel {
        try requireDirectory(url)
        let versionURLs = try FileManager.default
            .contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "xcdatamodel" }
        guard !versionURLs.isEmpty else {
            throw ModelError(file: url.path, reason: .noVersions(fileExtension: "xcdatamodel"))
        }
        let versions = try versionURLs.map(readVersion)
        let current = try currentVersionName(in: url, versions: versions)
        return try VersionedModel(name: url.deletingPathExtension().lastPathComponent,
                                  versions: versions, currentVersionName: current, sourceName: url.path)
    }

    /// Reads one `.xcdatamodel` folder (its `contents` file); the version is named after the folder.
    public static func readVersion(at url: URL) throws -> ManagedObjectModel {
        try requireDirectory(url)
        let contents = url.appendingPathComponent("contents")
        try refuseBinaryFormat(url, contents: contents)
        let tree = try XMLTreeReader.read(contentsOf: contents, displayName: contents.path)
        return try ModelXMLDecoder(fileName: contents.path)
            .decodeModel(tree, versionName: url.deletingPathExtension().lastPathComponent)
    }

    /// The version named by `.xccurrentversion`; without that file, the only version there is.
    private static func currentVersionName(in url: URL, versions: [ManagedObjectModel]) throws -> String {
        let file = url.appendingPathComponent(".xccurrentversion")
        guard FileManager.default.fileExists(atPath: file.path) else {
            if versions.count == 1 { return versions[0].name }
            throw ModelError(file: file.path, reason: .noCurrentVersionFile)
        }
        // Decoded by the Swift coder, which needs no run-time bridging (see StoreMetadataPlist).
        struct CurrentVersion: Decodable {
            var name: String?
            enum CodingKeys: String, CodingKey { case name = "_XCCurrentVersionName" }
            init(from decoder: Decoder) throws {
                // A name that is not text is reported as a missing key, below.
                name = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .name)
            }
        }
        let plist: CurrentVersion
        do {
            plist = try PropertyListDecoder().decode(CurrentVersion.self, from: Data(contentsOf: file))
        } catch {
            throw ModelError(file: file.path, reason: .unreadableCurrentVersionFile(cause: .init(error)))
        }
        guard let folder = plist.name else {
            throw ModelError(file: file.path, reason: .noCurrentVersionKey)
        }
        return (folder as NSString).deletingPathExtension
    }

    /// Models saved by Xcode 3 keep their entities in a binary archive (`elements`, no `contents`),
    /// which this reader does not decode: named as such, rather than as a missing or broken file.
    private static func refuseBinaryFormat(_ url: URL, contents: URL) throws {
        let elements = url.appendingPathComponent("elements")
        // Closing a file only read loses nothing.
        let contentsIsBinary = FileHandle(forReadingAtPath: contents.path)
            .map { handle in defer { try? handle.close() }; return handle.readData(ofLength: 6) == Data("bplist".utf8) } ?? false
        guard contentsIsBinary || (!FileManager.default.fileExists(atPath: contents.path)
                                   && FileManager.default.fileExists(atPath: elements.path)) else { return }
        throw ModelError(file: url.path, reason: .binaryFormatModel)
    }

    private static func requireDirectory(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError(file: url.path, reason: .noSuchFileOrFolder)
        }
        guard isDirectory.boolValue else {
            throw ModelError(file: url.path, reason: .modelIsNotAFolder)
        }
    }
}
