import ManagedStore
import Testing

/// A version's short name, in backup and kept-step file names: its own version when its name
/// ends with one, else its place (issue #38: `k.v4.sqlite` for a version named `v1.2.0`).
@Suite struct VersionLabelTests {
    private static func model(_ names: [String]) throws -> VersionedModel {
        let versions = try names.map { try ManagedObjectModel(name: $0, entities: [], sourceName: $0) }
        return try VersionedModel(name: "Notes", versions: versions, currentVersionName: names[names.count - 1], sourceName: "Notes")
    }

    @Test("names that end with a version give it; others, and repeated ones, their place")
    func labels() throws {
        let model = try Self.model(["Notes", "Notes v1.1", "Notes_v1.2.0", "Notes-2", "Notes final", "Notes 3", "Notes v3"])
        let labels = model.versions.map { model.label(of: $0) }
        #expect(Dictionary(uniqueKeysWithValues: zip(model.versions.map(\.name), labels)) == [
            "Notes": "v1", "Notes v1.1": "v1.1", "Notes_v1.2.0": "v1.2.0", "Notes-2": "v2", "Notes final": "v\((model.versions.firstIndex { $0.name == "Notes final" } ?? 0) + 1)",
            "Notes 3": "v\((model.versions.firstIndex { $0.name == "Notes 3" } ?? 0) + 1)",
            "Notes v3": "v\((model.versions.firstIndex { $0.name == "Notes v3" } ?? 0) + 1)",
        ])
    }

    @Test("the app's versions keep their labels v1 to v5")
    func appLabels() throws {
        let model = try Self.model(["UnCloudNotesDataModel", "UnCloudNotesDataModel v2", "UnCloudNotesDataModel v3", "UnCloudNotesDataModel v4",
                                    "UnCloudNotesDataModel v5"])
        #expect(model.versions.map { model.label(of: $0) } == ["v1", "v2", "v3", "v4", "v5"])
    }
}
