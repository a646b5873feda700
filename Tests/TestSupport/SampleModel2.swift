import Foundation
import ManagedStore

/// Apple's SampleModel2 store and its two model versions, from `../shared/fixtures`: a store
/// written by Core Data with persistent history and a derived attribute.
public enum SampleModel2 {
    public static var fixture: URL { SharedFixtures.url("coredataplus-samplemodel2") }

    /// A copy of Apple's store in the folder.
    public static func copyStore(into folder: TemporaryFolder, as name: String = "SampleModel2.sqlite") throws -> URL {
        try folder.copyStore(fixture.appendingPathComponent("SampleModel2_V1.sqlite"), as: name)
    }

    /// The fixture's two versions, with Author.books unbounded as CoreDataPlus defines it in code
    /// (Xcode's XML cannot say Int.max), so that V1 matches every hash of Apple's store.
    public static func versions(in folder: TemporaryFolder) throws -> VersionedModel {
        let bundle = "SampleModel2.xcdatamodeld"
        for version in ["SampleModel2V1", "SampleModel2V2"] {
            let original = try String(contentsOf: fixture.appendingPathComponent("\(bundle)/\(version).xcdatamodel/contents"), encoding: .utf8)
            let unbounded = original.replacingOccurrences(
                of: #"<relationship name="books" optional="YES" toMany="YES""#,
                with: #"<relationship name="books" optional="YES" toMany="YES" maxCount="\#(Int.max)""#)
            guard unbounded != original else {
                throw SpawnedProcess.SpawnError(description: "\(version): Author.books is not where SampleModel2 has it")
            }
            _ = try folder.write(unbounded, to: "\(bundle)/\(version).xcdatamodel/contents")
        }
        _ = try folder.write(ModelFiles.currentVersion("SampleModel2V2"), to: "\(bundle)/.xccurrentversion")
        return try ModelFileReader.read(at: folder.url.appendingPathComponent(bundle))
    }
}
