import Foundation
import Testing

/// The real files written by Apple's tools, in `../shared/fixtures` beside the repository.
///
/// They are not part of the project, so tests that use them are skipped, with this type's
/// `required` trait, when the folder is absent. `UNCLOUDNOTES_SHARED` can point elsewhere.
public enum SharedFixtures {
    /// The trait for tests that need the shared fixtures: skips them, saying why, when absent.
    public static var required: ConditionTrait {
        .enabled(if: isAvailable, "skipped: ../shared/fixtures (real Xcode and Core Data files) is absent")
    }

    /// The repository's top folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var fixturesFolder: URL {
        if let override = ProcessInfo.processInfo.environment["UNCLOUDNOTES_SHARED"], !override.isEmpty {
            return URL(fileURLWithPath: override).appendingPathComponent("fixtures")
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    }

    public static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: fixturesFolder.path)
    }

    public static func url(_ relativePath: String) -> URL {
        fixturesFolder.appendingPathComponent(relativePath)
    }

    /// A copy of a real store at `relativePath`, with its `-wal` and `-shm` when it has them
    /// (a store's latest writes may live only in its `-wal`), named `name` in `folder`.
    public static func copyStore(_ relativePath: String, to folder: URL, as name: String) throws -> URL {
        for suffix in ["", "-wal", "-shm"] {
            let file = url(relativePath + suffix)
            guard suffix.isEmpty || FileManager.default.fileExists(atPath: file.path) else { continue }
            try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent(name + suffix))
        }
        return folder.appendingPathComponent(name)
    }

    /// The real Xcode model of the chapter's final project.
    public static var xcodeUnCloudNotesModel: URL {
        url("xcode-uncloudnotes/UnCloudNotesDataModel.xcdatamodeld")
    }
}

/// The project's own fixtures in `Tests/Fixtures`: stores written once by old versions of the
/// app, never regenerated (see `scripts/make-fixtures.sh`). Tests work on copies.
public enum ProjectFixtures {
    public static let folder = SharedFixtures.packageRoot.appendingPathComponent("Tests/Fixtures")

    /// A fresh copy of a fixture store in the temporary folder, named as the app names its store.
    public static func copyStore(_ version: String, into folder: TemporaryFolder,
                                 as name: String = "UnCloudNotesDataModel.sqlite") throws -> URL {
        let destination = folder.url.appendingPathComponent(name)
        try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("\(version).sqlite"), to: destination)
        return destination
    }
}
