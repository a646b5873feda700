import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GRDB
@testable import ManagedStore
import Testing
import TestSupport

/// `model check` on real Xcode models and Apple-written stores, the generated stores, and the JUnit output.
@Suite("model check: real models, generated stores, JUnit")
struct ModelCheckTests {
    private static var wibosco: URL { SharedFixtures.url("wibosco-migration-example") }

    @Test("wibosco's four versions: each route as Core Data would take it; Apple's v3 store migrates with every object kept", SharedFixtures.required)
    func wibosco() throws {
        let options = ModelCheck.Options(mappingModelFiles: try ModelCheck.mappingModelFiles(in: Self.wibosco.appendingPathComponent("Mappings")),
                                         storesFolder: Self.wibosco.appendingPathComponent("stores"))
        let report = try ModelCheck.run(modelAt: Self.wibosco.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"), options: options)
        #expect(report.routes.map(\.label) == ["v1", "v2", "v3"])
        #expect(report.routes[0].steps.map(\.how) == ["mapping model Migration1to2",
                                                       "mapping model Migration2to3, custom policy CoreDataMigration_Example.Post2ToPost3MigrationPolicy",
                                                       "in place"])
        // Core Data alone would jump: v3 -> 4 is inferable; v1 -> 4 adds a required relationship.
        #expect(report.routes[2].coreDataDirect == "lightweight (inferred in one jump)")
        #expect(report.routes[0].coreDataDirect.hasPrefix("fails: \"Can't find mapping model for migration\""))
        // The policy is the project's own Swift class, which this program cannot run.
        #expect(report.findings.map(\.kind) == [.unknownPolicy])
        #expect(report.verdict == "fail")
        let stores = Dictionary(uniqueKeysWithValues: report.trials.map { ($0.name, $0) })
        let third = try #require(stores["CoreDataMigration_Example_3.sqlite"])
        #expect(third.outcome == .passed, "\(third.problems)")
        #expect(third.label == "v3" && third.objectsBefore == 15_990 && third.objectsAfter == 15_990)
        #expect(third.checks > 0)
        #expect(stores["CoreDataMigration_Example_WAL.sqlite"]?.outcome == .skipped)
        #expect(stores["CoreDataMigration_Example_1.sqlite"]?.outcome == .skipped)
        #expect(stores["generated v3"]?.outcome == .passed)
    }

    @Test("--stores works on copies: the given stores' files are unchanged and get no companions", SharedFixtures.required)
    func storesUntouched() throws {
        let folder = try TemporaryFolder()
        let stores = folder.url.appendingPathComponent("stores")
        try FileManager.default.createDirectory(at: stores, withIntermediateDirectories: true)
        let source = Self.wibosco.appendingPathComponent("stores")
        for name in ["CoreDataMigration_Example_3.sqlite", "CoreDataMigration_Example_WAL.sqlite", "CoreDataMigration_Example_WAL.sqlite-wal"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: stores.appendingPathComponent(name))
        }
        let before = try snapshot(stores)
        let report = try ModelCheck.run(modelAt: Self.wibosco.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"),
                                        options: ModelCheck.Options(storesFolder: stores, generateStores: false))
        #expect(report.trials.map(\.outcome) == [.passed, .skipped])
        #expect(try snapshot(stores) == before)
    }

    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    @Test("the chapter's Xcode model and mapping models: every route passes, trials included", SharedFixtures.required)
    func chapter() throws {
        let root = SharedFixtures.url("xcode-uncloudnotes")
        // The v3 -> v4 policy is the app's; without it that step is reported, not run.
        let report = try ModelCheck.run(modelAt: SharedFixtures.xcodeUnCloudNotesModel,
                                        options: ModelCheck.Options(mappingModelFiles: try ModelCheck.mappingModelFiles(in: root)))
        #expect(report.routes.map(\.summary) == [
            "v1 -> v2 (in place), v2 -> v3 (mapping model UnCloudNotesMappingModel_v2_to_v3), v3 -> v4 (mapping model UnCloudNotesMappingModel_v3_to_v4, custom policy UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4)",
            "v2 -> v3 (mapping model UnCloudNotesMappingModel_v2_to_v3), v3 -> v4 (mapping model UnCloudNotesMappingModel_v3_to_v4, custom policy UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4)",
            "v3 -> v4 (mapping model UnCloudNotesMappingModel_v3_to_v4, custom policy UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4)",
        ])
        #expect(report.findings.map(\.kind) == [.unknownPolicy])
        // Xcode's snapshots inside both mapping models still match the model files.
        #expect(!report.findings.contains { $0.kind == .mappingModelOutOfDate })
        let snapshot = MappingModelSnapshot.read(at: root.appendingPathComponent("UnCloudNotesMappingModel_v2_to_v3.xcmappingmodel"))
        #expect(snapshot?.source["Note"].map { Set($0.keys) } == ["body", "dateCreated", "displayIndex", "image", "title"])
        // Each attribute's type and flags, from Xcode's stereotype tagged values.
        #expect(snapshot?.source["Note"]?["image"] == MappingModelSnapshot.Property(attributeType: .transformable, isOptional: true, isTransient: false))
        #expect(snapshot?.destination["Attachment"]?["note"] == MappingModelSnapshot.Property(isOptional: true, isTransient: false))
    }

    @Test("SampleModel2: the generated v1 store, with a sub-entity and a required to-many, migrates; Apple's store is recognised as no version of the transcription", SharedFixtures.required)
    func sampleModel2() throws {
        let root = SharedFixtures.url("coredataplus-samplemodel2")
        let report = try ModelCheck.run(modelAt: root.appendingPathComponent("SampleModel2.xcdatamodeld"),
                                        options: ModelCheck.Options(storesFolder: root))
        let generated = try #require(report.trials.first { $0.name == "generated v1" })
        #expect(generated.outcome == .passed, "\(generated.problems)")
        #expect(generated.objectsBefore == generated.objectsAfter && generated.objectsBefore > 20)
        // SOURCE.md: Author's hashes cannot match (a maximum count Xcode's XML cannot express).
        let apple = try #require(report.trials.first { $0.name == "SampleModel2_V1.sqlite" })
        #expect(apple.outcome == .failed && apple.problems == ["its version hashes match no version of SampleModel2"])
        #expect(report.findings.contains { $0.kind == .attributeRemoved && $0.message.contains("Author.siteURL") })
    }

    @Test("a generated store: five objects per entity, edge values, large binary data kept outside, relationships in several shapes")
    func generatedStore() throws {
        let folder = try TemporaryFolder()
        let xml = #"""
            <entity name="Item" isAbstract="YES"><attribute name="name" attributeType="String"/><attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/><attribute name="when" optional="YES" attributeType="Date"/><attribute name="small" attributeType="Integer 16" defaultValueString="0"/><relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/></entity>
            <entity name="Note" parentEntity="Item"><attribute name="body" optional="YES" attributeType="String"/></entity>
            <entity name="Photo" parentEntity="Item"><attribute name="width" attributeType="Double" defaultValueString="0"/></entity>
            <entity name="Folder"><attribute name="title" attributeType="String"/><relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="folder" inverseEntity="Item"/><relationship name="related" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Folder" inverseName="relatedBy" inverseEntity="Folder"/><relationship name="relatedBy" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Folder" inverseName="related" inverseEntity="Folder"/></entity>
            """#
        let model = try ModelFileReader.read(at: ModelCheckRiskTests.model([xml], in: folder)).current
        let url = folder.url.appendingPathComponent("g.sqlite")
        try RepresentativeStore.write(at: url, model: model)
        let contents = try StoreContents.read(storeAt: url, model: model)
        #expect(contents.entities.keys.sorted() == ["Folder", "Note", "Photo"])
        #expect(contents.entities.values.allSatisfy { $0.count == RepresentativeStore.objectsPerEntity })
        #expect(contents.problems.isEmpty)
        let notes = try #require(contents.entities["Note"])
        #expect(notes.values["small"]?.contains("i\(Int16.min)") == true && notes.values["small"]?.contains("i\(Int16.max)") == true)
        #expect(notes.values["name"]?.contains("s") == true, "an empty string")
        #expect(notes.values["name"]?.contains { $0.hasPrefix("s") && $0.count > 6 && $0.contains(":") } == true, "a long string")
        #expect(notes.values["blob"]?.contains("nil") == true && notes.values["blob"]?.contains { $0.hasPrefix("x150000:") } == true)
        // The large value went to external storage.
        let external = ExternalDataFolder(storeAt: url).url
        #expect(try FileManager.default.contentsOfDirectory(atPath: external.path).count >= 2)
        // Every item of both sub-entities has a folder but the last of each; folders share them out.
        #expect(notes.links["folder"] == 4 && contents.entities["Photo"]?.links["folder"] == 4)
        #expect(contents.entities["Folder"]?.links["items"] == 8)
        // Many-to-many: none, one, all five, two, one; the inverse holds the same pairs.
        #expect(contents.entities["Folder"]?.links["related"] == 9 && contents.entities["Folder"]?.links["relatedBy"] == 9)
        #expect(try StoreContents.integrityCheck(storeAt: url) == "ok")
    }

    @Test("JUnit: well-formed XML, one test case per route, failures for the routes an error concerns")
    func junit() throws {
        let note = ModelCheckRiskTests.note
        let v2 = note.replacingOccurrences(of: "</entity>", with: #"<attribute name="extra" optional="YES" attributeType="String"/></entity>"#)
        let v3 = v2.replacingOccurrences(of: #"name="extra" optional="YES" attributeType="String""#, with: #"name="extra" optional="YES" attributeType="Date""#)
        let v4 = v3.replacingOccurrences(of: #"<attribute name="body" optional="YES" attributeType="String"/>"#, with: "")
        let report = try ModelCheckRiskTests.check([note, v2, v3, v4])
        let xml = JUnitReport.xml(report)
        let document = try XMLDocument(data: Data(xml.utf8), options: [])
        let cases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        #expect(cases.count == report.routes.count && cases.count == 3)
        #expect(cases.compactMap { $0.attribute(forName: "name")?.stringValue } == ["v1 -> M v4", "v2 -> M v4", "v3 -> M v4"])
        let failed = cases.map { !$0.elements(forName: "failure").isEmpty }
        #expect(failed == [true, true, false])
        #expect(try document.nodes(forXPath: "/testsuites/testsuite/@failures").first?.stringValue == "2")
        // v3 -> v4 removes an attribute: a warning, shown in the case's output but no failure.
        #expect(cases[2].elements(forName: "system-out").first?.stringValue?.contains("warning [attributeRemoved]") == true)
        #expect(JUnitReport.escape("a<b & \"c\"\u{1}") == "a&lt;b &amp; &quot;c&quot;\u{FFFD}")
    }

    @Test("the trial's comparison notices an object lost, a value changed and a link dropped")
    func verificationNotices() throws {
        let folder = try TemporaryFolder()
        let xml = #"""
            <entity name="Note"><attribute name="title" attributeType="String"/><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/></entity>
            <entity name="Tag"><attribute name="name" attributeType="String"/><relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/></entity>
            """#
        let model = try ModelFileReader.read(at: ModelCheckRiskTests.model([xml], in: folder)).current
        let url = folder.url.appendingPathComponent("v.sqlite")
        try RepresentativeStore.write(at: url, model: model)
        let expected = ExpectedContents(try StoreContents.read(storeAt: url, model: model))
        #expect(expected.differences(from: try StoreContents.read(storeAt: url, model: model)).isEmpty)
        let database = try DatabaseQueue(path: url.path)
        try database.write { db in
            try db.execute(sql: "UPDATE ZNOTE SET ZTITLE = 'changed' WHERE Z_PK = 1")
            try db.execute(sql: "DELETE FROM ZTAG WHERE Z_PK = (SELECT MAX(Z_PK) FROM ZTAG)")
        }
        try database.close()
        let differences = expected.differences(from: try StoreContents.read(storeAt: url, model: model))
        #expect(differences.contains("Note.title: 1 of 5 value(s) not carried"), "\(differences)")
        #expect(differences.contains("Tag: 5 object(s) expected, 4 found"), "\(differences)")
    }

    @Test("a 20-version model: 19 routes, each with its trial that passes")
    func twentyVersions() throws {
        let folder = try TemporaryFolder()
        let fixed = #"<attribute name="title" attributeType="String"/><attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>"#
        let others = #"<entity name="Sub" parentEntity="Note"><attribute name="x" optional="YES" attributeType="Double"/></entity><entity name="Tag"><attribute name="name" attributeType="String"/><relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/></entity>"#
        let versions = (0..<20).map { index in
            "<entity name=\"Note\">" + fixed + (0..<index).map { #"<attribute name="a\#($0)" optional="YES" attributeType="Integer 32"/>"# }.joined()
                + "</entity>" + others
        }
        let report = try ModelCheck.run(modelAt: ModelCheckRiskTests.model(versions, in: folder))
        #expect(report.routes.count == 19 && report.routes.allSatisfy(\.isPossible))
        #expect(report.trials.count == 19 && report.trials.allSatisfy { $0.outcome == .passed }, "\(report.trials.flatMap(\.problems))")
        #expect(report.findings.isEmpty)
    }

    @Test("a skipped trial is counted as skipped, not passed: in the summary, the JSON and JUnit's <skipped/> (issue #36)")
    func skippedTrials() throws {
        let folder = try TemporaryFolder()
        let note = ModelCheckRiskTests.note
        let bundle = try ModelCheckRiskTests.model([note, note.replacingOccurrences(of: "</entity>", with: #"<attribute name="extra" optional="YES" attributeType="Date"/></entity>"#)],
                                                   in: folder)
        // A store saved at the current version: nothing to migrate, so its trial is skipped.
        let stores = folder.url.appendingPathComponent("stores")
        try FileManager.default.createDirectory(at: stores, withIntermediateDirectories: true)
        try RepresentativeStore.write(at: stores.appendingPathComponent("current.sqlite"), model: try ModelFileReader.read(at: bundle).current)
        let report = try ModelCheck.run(modelAt: bundle, options: ModelCheck.Options(storesFolder: stores))
        #expect(report.trials.map(\.outcome) == [.passed, .skipped])
        #expect(report.trialCount(.passed) == 1 && report.trialCount(.skipped) == 1 && report.trialCount(.failed) == 0)
        #expect(report.lines.last?.hasSuffix("1 trial migration(s) passed, 0 failed, 1 skipped") == true, "\(report.lines.last ?? "")")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(json["trialsPassed"] as? Int == 1 && json["trialsSkipped"] as? Int == 1 && json["trialsFailed"] as? Int == 0)

        let document = try XMLDocument(data: Data(JUnitReport.xml(report).utf8), options: [])
        let cases = try document.nodes(forXPath: "//testcase").compactMap { $0 as? XMLElement }
        #expect(cases.compactMap { $0.attribute(forName: "name")?.stringValue } == ["v1 -> M v2", "store current.sqlite"])
        #expect(cases[0].elements(forName: "skipped").isEmpty)
        let skipped = try #require(cases[1].elements(forName: "skipped").first)
        #expect(skipped.attribute(forName: "message")?.stringValue == report.trials[1].problems.joined(separator: "; "))
        #expect(cases[1].elements(forName: "failure").isEmpty)
        #expect(try document.nodes(forXPath: "/testsuites/testsuite/@skipped").first?.stringValue == "1")
        #expect(try document.nodes(forXPath: "/testsuites/@skipped").first?.stringValue == "1")
    }

    @Test("SampleModel3, whose current version is its first of three: all three are read, and the later two are a warning (issue #36)",
          SharedFixtures.required)
    func sampleModel3() throws {
        let root = SharedFixtures.url("coredata-samplemodel3")
        let report = try ModelCheck.run(modelAt: root.appendingPathComponent("SampleModel3.xcdatamodeld"),
                                        options: ModelCheck.Options(storesFolder: root))
        #expect(report.versions == ["SampleModel3", "SampleModel3_v2", "SampleModel3_v3"])
        #expect(report.currentVersion == "SampleModel3" && report.routes.isEmpty)
        let finding = try #require(report.findings.first)
        #expect(report.findings.count == 1 && finding.kind == .versionsAfterCurrent && finding.severity == .warning)
        #expect(finding.message.contains("SampleModel3_v2, SampleModel3_v3"))
        // Apple's store is at SampleModel3, the current version: recognised, nothing to migrate.
        #expect(report.trials.map(\.outcome) == [.skipped] && report.trials.first?.label == "v1")
    }

    @Test("every shared fixture model: every version of each .xcdatamodeld is read and counted (issue #36)", SharedFixtures.required)
    func everyFixtureModel() throws {
        let manager = FileManager.default
        let models = try manager.contentsOfDirectory(at: SharedFixtures.fixturesFolder, includingPropertiesForKeys: nil)
            .flatMap { try manager.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil) }
            .filter { $0.pathExtension == "xcdatamodeld" }
        #expect(models.count >= 4)
        for model in models {
            let versions = try manager.contentsOfDirectory(atPath: model.path).filter { $0.hasSuffix(".xcdatamodel") }
            let report = try ModelCheck.run(modelAt: model, options: ModelCheck.Options(generateStores: false))
            #expect(report.versions.count == versions.count, "\(model.lastPathComponent)")
            #expect(report.lines.first?.contains(": \(versions.count) version(s), current ") == true, "\(report.lines.first ?? "")")
            let current = try #require(report.versions.firstIndex(of: report.currentVersion))
            #expect(report.routes.count == current, "\(model.lastPathComponent): one route per version before the current one")
        }
    }

    @Test("a current version in the middle: routes from the versions before it, a warning naming those after, a JUnit case for it (issue #36)")
    func currentInTheMiddle() throws {
        let folder = try TemporaryFolder()
        let note = ModelCheckRiskTests.note
        let bundle = folder.url.appendingPathComponent("M.xcdatamodeld")
        let added = note.replacingOccurrences(of: "</entity>", with: #"<attribute name="extra" optional="YES" attributeType="Date"/></entity>"#)
        for (name, xml) in [("M", note), ("M v2", added), ("M v3", note)] {
            try ModelFiles.writeVersion(name, entities: xml, in: bundle)
        }
        try folder.write(ModelFiles.currentVersion("M v2"), to: "M.xcdatamodeld/.xccurrentversion")
        let report = try ModelCheck.run(modelAt: bundle)
        #expect(report.versions == ["M", "M v2", "M v3"] && report.routes.map(\.label) == ["v1"])
        #expect(report.findings.map(\.kind) == [.versionsAfterCurrent] && report.findings[0].location == nil)
        #expect(report.findings[0].message.contains("M v3"))
        #expect(report.verdict == "pass with warnings")
        let document = try XMLDocument(data: Data(JUnitReport.xml(report).utf8), options: [])
        let names = try document.nodes(forXPath: "//testcase/@name").compactMap(\.stringValue)
        #expect(names == ["v1 -> M v2", "model versions"])
    }
}
