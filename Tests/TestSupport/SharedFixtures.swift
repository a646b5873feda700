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

    /// The real Xcode model of the chapter's final project.
    public static var xcodeUnCloudNotesModel: URL {
        url("xcode-uncloudnotes/UnCloudNotesDataModel.xcdatamodeld")
    }
}
