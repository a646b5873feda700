import Foundation
import ManagedStore
import Testing
import TestSupport

/// What `model check` is given besides the model: a stores folder that cannot be used, a JUnit
/// destination that cannot be written, and mapping models left beside the model (issue #36).
@Suite("model check: stores folder, JUnit file, mapping models nearby")
struct ModelCheckInputTests {
    private static func model(in folder: TemporaryFolder) throws -> URL {
        try ModelCheckRiskTests.model([ModelCheckRiskTests.note], in: folder)
    }

    /// The cause of the `ModelCheckError` that `body` throws, when it is `unreadableStoreFolder`.
    private func storeFolderProblem(_ body: () throws -> Void) -> ModelCheckError.PathProblem? {
        do {
            try body()
        } catch ModelCheckError.unreadableStoreFolder(_, let cause as ModelCheckError.PathProblem) {
            return cause
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        return nil
    }

    @Test("a stores folder that holds no store, is a file, or is missing: an error before any trial runs")
    func unusableStoresFolder() throws {
        let folder = try TemporaryFolder()
        let model = try Self.model(in: folder)
        let empty = folder.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        // A companion or an unrelated file is no store.
        _ = try folder.write("", to: "empty/notes.sqlite-wal")
        _ = try folder.write("", to: "empty/README.md")
        do {
            _ = try ModelCheck.run(modelAt: model, options: ModelCheck.Options(storesFolder: empty))
            Issue.record("an empty stores folder passed")
        } catch ModelCheckError.noStores(let path) {
            #expect(path == empty.path)
        }
        let file = try folder.write("", to: "one.sqlite")
        #expect(storeFolderProblem { _ = try ModelCheck.run(modelAt: model, options: ModelCheck.Options(storesFolder: file)) } == .notAFolder)
        let missing = folder.url.appendingPathComponent("none")
        #expect(storeFolderProblem { _ = try ModelCheck.run(modelAt: model, options: ModelCheck.Options(storesFolder: missing)) } == .missing)
    }

    @Test("the JUnit report's path is checked before the run: a folder or a missing folder is refused, naming the path")
    func junitDestination() throws {
        let folder = try TemporaryFolder()
        let reports = folder.url.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        for (destination, problem) in [(reports, "a folder"), (reports.appendingPathComponent("none/r.xml"), "a missing folder")] {
            do {
                try JUnitReport.checkDestination(destination)
                Issue.record("\(problem) accepted")
            } catch ModelCheckError.unwritableReport(let path, let cause) {
                #expect(path == destination.path)
                if problem == "a folder" { #expect(cause as? ModelCheckError.PathProblem == .aFolder) }
            }
        }
        try JUnitReport.checkDestination(reports.appendingPathComponent("r.xml"))
        try JUnitReport.checkDestination(URL(fileURLWithPath: "/dev/null"))
    }

    @Test("mapping models beside the model, in its parent folder or in a folder beside it are found for a hint; none elsewhere")
    func mappingModelsNearby() throws {
        let folder = try TemporaryFolder()
        let model = folder.url.appendingPathComponent("App/Model/M.xcdatamodeld")
        _ = try ModelFiles.writeVersion("M", entities: ModelCheckRiskTests.note, in: model)
        let found = { ModelCheck.mappingModelFolders(besideModelAt: model).map { $0.path.dropFirst(folder.url.path.count) } }
        #expect(found().isEmpty)
        _ = try folder.write("", to: "App/Other/B.xcmappingmodel/xcmapping.xml")
        _ = try folder.write("", to: "App/Model/Deeper/Still/C.xcmappingmodel/xcmapping.xml")
        #expect(found().isEmpty)
        _ = try folder.write("", to: "App/Model/Mappings/A.xcmappingmodel/xcmapping.xml")
        #expect(found() == ["/App/Model/Mappings"])
        _ = try folder.write("", to: "App/Model/D.xcmappingmodel/xcmapping.xml")
        _ = try folder.write("", to: "App/E.xcmappingmodel/xcmapping.xml")
        #expect(found() == ["/App/Model", "/App", "/App/Model/Mappings"])
    }
}
