import Foundation
import ManagedStore
import UnCloudNotesResources

/// The app's own versioned data model, `UnCloudNotesDataModel` (versions v1 to v4 of the chapter),
/// read from the model files shipped in `Resources/`.
public enum UnCloudNotesModel {
    /// The folder name of the model in `Resources/`.
    public static let resourceName = "UnCloudNotesDataModel.xcdatamodeld"

    /// Where the shipped model files are.
    public static func url() throws -> URL {
        try UnCloudNotesResources.url(named: resourceName)
    }

    /// Loads every version of the app's model.
    public static func load() throws -> VersionedModel {
        try ModelFileReader.readVersioned(at: url())
    }
}
