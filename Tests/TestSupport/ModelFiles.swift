import Foundation

/// Writes small Xcode-format model files for tests, so each malformed case is a few lines.
public enum ModelFiles {
    /// A `<model>` document around the given entity XML.
    public static func contents(_ entities: String, identifier: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" \
        userDefinedModelVersionIdentifier="\(identifier)">
        \(entities)
        </model>
        """
    }

    /// The `.xccurrentversion` plist naming a version.
    public static func currentVersion(_ versionName: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>_XCCurrentVersionName</key>
            <string>\(versionName).xcdatamodel</string>
        </dict>
        </plist>
        """
    }

    /// Writes `Name.xcdatamodel/contents` into the folder and returns the `.xcdatamodel` URL.
    @discardableResult
    public static func writeVersion(_ name: String, entities: String, in folder: URL) throws -> URL {
        let version = folder.appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(contents(entities).utf8).write(to: version.appendingPathComponent("contents"))
        return version
    }
}
