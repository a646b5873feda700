import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("The app's mapping models")
struct AppMappingModelTests {
    @Test("they describe the chapter's mappings")
    func chapterMappings() throws {
        let model = try UnCloudNotesModel.load()
        let mappings = try UnCloudNotesModel.loadMappingModels(for: model)
        let v2 = try #require(model.version(named: "UnCloudNotesDataModel v2"))
        let v3 = try #require(model.version(named: "UnCloudNotesDataModel v3"))
        let v4 = try #require(model.version(named: "UnCloudNotesDataModel v4"))

        let v2to3 = try #require(MappingModel.find(in: mappings, from: v2, to: v3))
        #expect(v2to3.entityMappings.map(\.name) == ["NoteToAttachment", "NoteToNote"])
        let noteToAttachment = v2to3.entityMappings[0]
        #expect(noteToAttachment.filterPredicate == (try ObjectPredicate(format: "image != nil")))
        #expect(noteToAttachment.attributeMappings == [
            PropertyMapping(name: "dateCreated", valueExpression: .source("dateCreated")),
            PropertyMapping(name: "image", valueExpression: .source("image")),
        ])
        #expect(noteToAttachment.relationshipMappings == [
            PropertyMapping(name: "note", valueExpression: try ValueExpression(format:
                #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "NoteToNote", $source)"#)),
        ])
        #expect(v2to3.entityMappings[1].attributeMappings.map(\.name) == ["body", "dateCreated", "displayIndex", "title"])

        let v3to4 = try #require(MappingModel.find(in: mappings, from: v3, to: v4))
        #expect(v3to4.entityMappings.map(\.name) == ["NoteToNote", "AttachmentToImageAttachment"])
        let policyMapping = v3to4.entityMappings[1]
        #expect(policyMapping.policyClassName == "UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4")
        #expect(policyMapping.relationshipMappings.first?.valueExpression
            == .destinationInstances(mapping: "NoteToNote", sourceInstances: .source("note")))
        #expect(MappingModel.find(in: mappings, from: v2, to: v4) == nil)
    }

    @Test("they equal the mapping models Xcode wrote for the chapter", SharedFixtures.required)
    func equalToXcodeFiles() throws {
        let model = try UnCloudNotesModel.load()
        let ours = try UnCloudNotesModel.loadMappingModels(for: model)
        let folder = SharedFixtures.url("xcode-uncloudnotes")
        let xcode = try MappingModelReader.readAll(in: folder, models: model)
        #expect(xcode.count == 2)
        // v4 -> v5 is the app's own, after the chapter.
        #expect(Array(ours.prefix(2)) == xcode)
        #expect(ours.last?.name == "UnCloudNotesMappingModel_v4_to_v5")
    }
}
