import Foundation
import ManagedStore
import UnCloudNotesResources

/// The app's own versioned data model, `UnCloudNotesDataModel` (versions v1 to v4 of the chapter, and v5 after it),
/// read from the model files shipped in `Resources/`.
public enum UnCloudNotesModel {
    /// The folder name of the model in `Resources/`.
    public static let resourceName = "UnCloudNotesDataModel.xcdatamodeld"

    /// Where the shipped model files are.
    public static func url() throws -> URL {
        try UnCloudNotesResources.url(named: resourceName)
    }

    /// The mapping models shipped for the steps lightweight migration cannot do.
    public static let mappingModelNames = [
        "UnCloudNotesMappingModel_v2_to_v3.xcmappingmodel", "UnCloudNotesMappingModel_v3_to_v4.xcmappingmodel",
        "UnCloudNotesMappingModel_v4_to_v5.xcmappingmodel",
    ]

    /// Loads every version of the app's model.
    public static func load() throws -> VersionedModel {
        try ModelFileReader.readVersioned(at: url())
    }

    /// Loads the app's mapping models, resolved against its model versions.
    public static func loadMappingModels(for model: VersionedModel) throws -> [MappingModel] {
        try mappingModelNames.map { try MappingModelReader.read(at: UnCloudNotesResources.url(named: $0), models: model) }
    }

    /// Where the shipped mapping models are (for `model check`, which reads each file itself).
    public static func mappingModelURLs() throws -> [URL] {
        try mappingModelNames.map { try UnCloudNotesResources.url(named: $0) }
    }

    /// The `ImageTransformer` the model names (the iOS app registered it at launch): every
    /// context the app makes on a store gets these.
    public static let valueTransformers = ValueTransformers([ImageTransformer.name: ImageTransformer()])
}
