import Foundation

/// The Xcode model `model check` is timed on (issue #36: "runs in seconds for a 20-version
/// model"), written here rather than taken from the tests' support so the benchmark builds on
/// its own: the test `twentyVersions`'s model, with any number of versions. Each version has a
/// `Note` (`title` required, `blob` external binary, to-many `tags`), its sub-entity `Sub` and
/// `Tag`; version k adds optional Integer 32 attributes a0..a(k-1) to `Note`, so each step is an
/// added attribute and every older version has a route to the last.
enum ModelCheckModel {
    /// Writes `M.xcdatamodeld` into the folder, its `.xccurrentversion` naming the last version.
    /// - Returns: the `.xcdatamodeld` URL.
    static func write(versions: Int, in folder: URL) throws -> URL {
        let bundle = folder.appendingPathComponent("M.xcdatamodeld")
        for index in 0..<versions {
            let version = bundle.appendingPathComponent("\(name(index)).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data(contents(entities(addedAttributes: index)).utf8).write(to: version.appendingPathComponent("contents"))
        }
        try currentVersion(name(versions - 1)).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return bundle
    }

    /// Xcode's names: `M`, then `M v2`, `M v3`...
    private static func name(_ index: Int) -> String { index == 0 ? "M" : "M v\(index + 1)" }

    private static let noteFixed = #"<attribute name="title" attributeType="String"/><attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>"#

    private static let others = #"<entity name="Sub" parentEntity="Note"><attribute name="x" optional="YES" attributeType="Double"/></entity><entity name="Tag"><attribute name="name" attributeType="String"/><relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/></entity>"#

    private static func entities(addedAttributes count: Int) -> String {
        "<entity name=\"Note\">" + noteFixed + (0..<count).map { #"<attribute name="a\#($0)" optional="YES" attributeType="Integer 32"/>"# }.joined()
            + "</entity>" + others
    }

    /// A version's `contents`: the `<model>` document around the entities.
    private static func contents(_ entities: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"
            + #"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">"#
            + entities + "</model>\n"
    }

    /// `.xccurrentversion`: Xcode's property list naming the current version's folder.
    private static func currentVersion(_ versionName: String) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "\(versionName).xcdatamodel"], format: .xml, options: 0)
    }
}
