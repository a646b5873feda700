import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ManagedStore
import Testing
import TestSupport

/// Small models written to have one risk each: `model check` must find it, with its severity.
@Suite("model check: one risk per model")
struct ModelCheckRiskTests {
    /// Writes the versions (entity XML, oldest first) as `M.xcdatamodeld`, the last one current.
    static func model(_ versions: [String], in folder: TemporaryFolder) throws -> URL {
        let bundle = folder.url.appendingPathComponent("M.xcdatamodeld")
        for (index, xml) in versions.enumerated() {
            try ModelFiles.writeVersion(index == 0 ? "M" : "M v\(index + 1)", entities: xml, in: bundle)
        }
        try folder.write(ModelFiles.currentVersion(versions.count == 1 ? "M" : "M v\(versions.count)"), to: "M.xcdatamodeld/.xccurrentversion")
        return bundle
    }

    static func check(_ versions: [String], options: ModelCheck.Options = ModelCheck.Options()) throws -> ModelCheckReport {
        let folder = try TemporaryFolder()
        return try ModelCheck.run(modelAt: model(versions, in: folder), options: options)
    }

    static let note = #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/><attribute name="count" optional="YES" attributeType="Integer 64"/></entity>"#

    private func kinds(_ report: ModelCheckReport, _ severity: CheckFinding.Severity) -> [CheckFinding.Kind] {
        report.findings.filter { $0.severity == severity }.map(\.kind)
    }

    @Test("a clean model (an optional attribute added): no findings, a trial that passes and checks carried values")
    func clean() throws {
        let report = try Self.check([Self.note, Self.note.replacingOccurrences(of: "</entity>", with: #"<attribute name="extra" optional="YES" attributeType="Date"/></entity>"#)])
        #expect(report.findings.isEmpty, "\(report.findings.map(\.line))")
        #expect(report.verdict == "pass")
        #expect(report.routes.count == 1 && report.routes[0].steps.map(\.how) == ["in place"])
        #expect(report.routes[0].coreDataDirect == "lightweight (inferred in one jump)")
        let trial = try #require(report.trials.first)
        #expect(trial.outcome == .passed, "\(trial.problems)")
        #expect(trial.objectsBefore == RepresentativeStore.objectsPerEntity && trial.objectsAfter == trial.objectsBefore)
        // The count of Note and its three attribute lists.
        #expect(trial.checks == 4)
    }

    @Test("an attribute removed: a warning (its values are dropped), still a pass")
    func attributeRemoved() throws {
        let report = try Self.check([Self.note, Self.note.replacingOccurrences(of: #"<attribute name="body" optional="YES" attributeType="String"/>"#, with: "")])
        #expect(kinds(report, .warning) == [.attributeRemoved])
        #expect(report.findings[0].message.contains("Note.body"))
        #expect(report.findings[0].location == "v1 -> v2")
        #expect(report.errorCount == 0 && report.verdict == "pass with warnings")
    }

    @Test("an entity removed: a warning naming it")
    func entityRemoved() throws {
        let tag = #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let report = try Self.check([Self.note + tag, Self.note])
        #expect(kinds(report, .warning) == [.entityRemoved])
        #expect(report.findings[0].message.hasPrefix("entity Tag is removed"))
        #expect(report.trials.first?.outcome == .passed)
    }

    @Test("optional made required without a default: an error, and the chain has a gap")
    func requiredWithoutDefault() throws {
        let report = try Self.check([Self.note, Self.note.replacingOccurrences(of: #"name="body" optional="YES""#, with: #"name="body""#)])
        #expect(Set(kinds(report, .error)) == [.requiredWithoutDefault, .chainGap])
        let finding = try #require(report.findings.first { $0.kind == .requiredWithoutDefault })
        #expect(finding.message.contains("Note.body is made required without a default value"))
        // What Core Data does instead: it infers the mapping, and a store with a Note lacking a body fails validation.
        #expect(finding.message.contains("Core Data infers a mapping") && finding.message.contains("Validation error missing attribute values"))
        #expect(report.routes[0].coreDataDirect.hasPrefix("inferred in one jump, but a store with objects lacking the value fails"))
        #expect(!report.routes[0].coreDataDirect.contains("Can't find mapping model"))
        #expect(!report.routes[0].isPossible && report.routes[0].steps[0].how == "none possible")
        // No trial for a route that cannot exist: the gap says it all.
        #expect(report.trials.isEmpty)
        #expect(report.verdict == "fail")
    }

    @Test("a narrowed type (Integer 64 -> Integer 16): an error without a mapping model")
    func narrowedType() throws {
        let report = try Self.check([Self.note, Self.note.replacingOccurrences(of: #"attributeType="Integer 64""#, with: #"attributeType="Integer 16""#)])
        let finding = try #require(report.findings.first { $0.kind == .narrowedType })
        #expect(finding.severity == .error)
        #expect(finding.message.contains("Note.count changes type from Integer 64 to Integer 16"))
        #expect(TypeNarrowing.isNarrowing(from: .integer64, to: .integer16))
        #expect(!TypeNarrowing.isNarrowing(from: .integer16, to: .integer64))
        #expect(!TypeNarrowing.isNarrowing(from: .date, to: .string))
        #expect(TypeNarrowing.isNarrowing(from: .string, to: .integer32))
    }

    @Test("a uniqueness constraint added over an existing attribute: a warning")
    func uniquenessConstraintAdded() throws {
        let constrained = Self.note.replacingOccurrences(of: "</entity>", with: #"<uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints></entity>"#)
        let report = try Self.check([Self.note, constrained])
        #expect(kinds(report, .warning) == [.uniquenessConstraintAdded])
        #expect(report.findings[0].message.contains("(title) added to Note"))
        // The generated titles are distinct, so the trial migration passes.
        #expect(report.trials.first?.outcome == .passed, "\(report.trials.first?.problems ?? [])")
    }

    @Test("a renaming identifier that names nothing in the previous version: a warning")
    func danglingRenamingIdentifier() throws {
        let renamed = Self.note.replacingOccurrences(of: #"<attribute name="body" optional="YES""#, with: #"<attribute name="text" elementID="bodyText" optional="YES""#)
        let report = try Self.check([Self.note, renamed])
        let finding = try #require(report.findings.first { $0.kind == .danglingRenamingIdentifier })
        #expect(finding.severity == .warning)
        #expect(finding.message.contains("attribute Note.text has renaming identifier \"bodyText\""))
        // Meanwhile body, which it probably meant, is dropped.
        #expect(report.findings.contains { $0.kind == .attributeRemoved && $0.message.contains("Note.body") })
    }

    @Test("a renaming identifier that does name the old attribute is no risk; the values are carried")
    func workingRenamingIdentifier() throws {
        let renamed = Self.note.replacingOccurrences(of: #"<attribute name="body" optional="YES""#, with: #"<attribute name="text" elementID="body" optional="YES""#)
        let report = try Self.check([Self.note, renamed])
        #expect(report.findings.isEmpty, "\(report.findings.map(\.line))")
        #expect(report.trials.first?.outcome == .passed)
        #expect(report.trials.first?.checks == 4)
    }

    @Test("a chain with a gap: v2 -> v3 can be neither found nor inferred; v1's route fails too, v3 is unaffected")
    func chainGap() throws {
        let v2 = Self.note.replacingOccurrences(of: "</entity>", with: #"<attribute name="extra" optional="YES" attributeType="String"/></entity>"#)
        let v3 = v2.replacingOccurrences(of: #"name="extra" optional="YES" attributeType="String""#, with: #"name="extra" optional="YES" attributeType="Date""#)
        let report = try Self.check([Self.note, v2, v3])
        let gaps = report.findings.filter { $0.kind == .chainGap }
        #expect(gaps.count == 1 && gaps[0].location == "v2 -> v3" && gaps[0].severity == .error)
        #expect(report.routes.map(\.isPossible) == [false, false])
        #expect(report.routes[0].steps.map(\.how) == ["in place", "none possible"])
        #expect(report.findings(of: report.routes[0]).contains { $0.kind == .chainGap })
    }

    @Test("a uniqueness constraint over values the objects share: the trial migration fails, as a store would")
    func constraintOverSharedValues() throws {
        let flag = #"<attribute name="done" attributeType="Boolean" defaultValueString="NO"/>"#
        let v1 = Self.note.replacingOccurrences(of: "</entity>", with: flag + "</entity>")
        let v2 = v1.replacingOccurrences(of: "</entity>", with: #"<uniquenessConstraints><uniquenessConstraint><constraint value="done"/></uniquenessConstraint></uniquenessConstraints></entity>"#)
        let report = try Self.check([v1, v2])
        #expect(report.findings.contains { $0.kind == .uniquenessConstraintAdded })
        let failed = try #require(report.findings.first { $0.kind == .migrationFailed })
        #expect(failed.severity == .error && failed.location == "generated v1")
        #expect(report.trials.first?.outcome == .failed)
    }

    @Test("a custom policy the program does not have: an error, and the trial is not run", SharedFixtures.required)
    func unknownPolicy() throws {
        let root = SharedFixtures.url("wibosco-migration-example")
        let options = ModelCheck.Options(mappingModelFiles: try ModelCheck.mappingModelFiles(in: root.appendingPathComponent("Mappings")))
        let report = try ModelCheck.run(modelAt: root.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"), options: options)
        let finding = try #require(report.findings.first { $0.kind == .unknownPolicy })
        #expect(finding.severity == .error && finding.location == "v2 -> v3")
        #expect(finding.message.contains("CoreDataMigration_Example.Post2ToPost3MigrationPolicy"))
        #expect(report.trial(of: report.routes[1])?.outcome == .skipped)
    }

    @Test("a custom policy acknowledged as the app's code (by full or class name): no error, its routes planned and their trials skipped (issue #36)",
          SharedFixtures.required)
    func appPolicy() throws {
        let root = SharedFixtures.url("wibosco-migration-example")
        let mappings = try ModelCheck.mappingModelFiles(in: root.appendingPathComponent("Mappings"))
        let model = root.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld")
        for name in ["CoreDataMigration_Example.Post2ToPost3MigrationPolicy", "Post2ToPost3MigrationPolicy"] {
            let report = try ModelCheck.run(modelAt: model, options: ModelCheck.Options(mappingModelFiles: mappings, appPolicies: [name]))
            #expect(report.findings.isEmpty, "\(report.findings.map(\.line))")
            #expect(report.verdict == "pass")
            #expect(report.routes.allSatisfy { $0.isPossible })
            #expect(report.trials.map(\.outcome) == [.skipped, .skipped, .passed])
            #expect(report.trials[0].problems.count == 1 && report.trials[0].problems[0].contains("CoreDataMigration_Example.Post2ToPost3MigrationPolicy"))
            let document = try XMLDocument(data: Data(JUnitReport.xml(report).utf8), options: [])
            #expect(try document.nodes(forXPath: "//testcase[skipped]").count == 2)
            #expect(try document.nodes(forXPath: "//failure").isEmpty)
        }
        // Another class's name acknowledges nothing: the error stays, and tells of the option.
        let other = try ModelCheck.run(modelAt: model, options: ModelCheck.Options(mappingModelFiles: mappings, appPolicies: ["OtherPolicy"]))
        let finding = try #require(other.findings.first { $0.kind == .unknownPolicy })
        #expect(finding.severity == .error && finding.message.contains("--app-policy CoreDataMigration_Example.Post2ToPost3MigrationPolicy"))
        // A route with an error fails in JUnit, even though its trial was skipped.
        let document = try XMLDocument(data: Data(JUnitReport.xml(other).utf8), options: [])
        #expect(try document.nodes(forXPath: "//testcase[failure]").count == 2 && document.nodes(forXPath: "//skipped").isEmpty)
    }

    @Test("a policy is acknowledged by its full name or its class name alone, not by another's (issue #36)")
    func appPolicyNames() {
        let options = ModelCheck.Options(appPolicies: ["NoteMigrationPolicy", "App.TagPolicy"])
        #expect(options.isAppPolicy("App.NoteMigrationPolicy") && options.isAppPolicy("NoteMigrationPolicy"))
        #expect(options.isAppPolicy("App.TagPolicy"))
        #expect(!options.isAppPolicy("Other.TagPolicy") && !options.isAppPolicy("App.Note"))
    }

    /// A copy of wibosco's model in `folder` with `edits` (version name -> text replaced -> by) made
    /// to its versions' files; each edit must change its file.
    private func editedWibosco(in folder: TemporaryFolder, _ edits: [(version: String, of: String, with: String)]) throws -> URL {
        let model = try folder.copy(SharedFixtures.url("wibosco-migration-example/CoreDataMigration_Example.xcdatamodeld"))
        for edit in edits {
            let contents = model.appendingPathComponent("\(edit.version).xcdatamodel/contents")
            let xml = try String(contentsOf: contents, encoding: .utf8)
            let edited = xml.replacingOccurrences(of: edit.of, with: edit.with)
            #expect(edited != xml, "\(edit.version): \(edit.of)")
            try Data(edited.utf8).write(to: contents)
        }
        return model
    }

    @Test("a mapping model made against an earlier edit of its model: an error naming what changed since", SharedFixtures.required)
    func mappingModelOutOfDate() throws {
        let folder = try TemporaryFolder()
        let root = SharedFixtures.url("wibosco-migration-example")
        // Version 2 gains an attribute after Migration1to2 was made in Xcode.
        let model = try editedWibosco(in: folder, [("CoreDataMigration_Example 2", #"<attribute name="date""#,
                                                    #"<attribute name="subtitle" optional="YES" attributeType="String"/><attribute name="date""#)])
        let options = ModelCheck.Options(mappingModelFiles: [root.appendingPathComponent("Mappings/Migration1to2.xcmappingmodel")])
        let report = try ModelCheck.run(modelAt: model, options: options)
        let finding = try #require(report.findings.first { $0.kind == .mappingModelOutOfDate })
        #expect(finding.severity == .error && finding.location == "Migration1to2.xcmappingmodel")
        #expect(finding.message.contains("Post.subtitle is new since"))
        // The untouched model has no such finding.
        let clean = try ModelCheck.run(modelAt: root.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"), options: options)
        #expect(!clean.findings.contains { $0.kind == .mappingModelOutOfDate })
    }

    @Test("a mapping model made before an attribute's type or optional flag changed: an error naming both changes (issue #36)",
          SharedFixtures.required)
    func mappingModelOutOfDateByType() throws {
        let folder = try TemporaryFolder()
        let root = SharedFixtures.url("wibosco-migration-example")
        // Same names as when Migration1to2 was made, but Post.date is now a String and Post.postID required.
        let model = try editedWibosco(in: folder, [
            ("CoreDataMigration_Example 2", #"name="date" optional="YES" attributeType="Date""#, #"name="date" optional="YES" attributeType="String""#),
            ("CoreDataMigration_Example 2", #"name="postID" optional="YES""#, #"name="postID" defaultValueString="none""#),
        ])
        let options = ModelCheck.Options(mappingModelFiles: [root.appendingPathComponent("Mappings/Migration1to2.xcmappingmodel")],
                                         generateStores: false)
        let report = try ModelCheck.run(modelAt: model, options: options)
        let finding = try #require(report.findings.first { $0.kind == .mappingModelOutOfDate })
        #expect(finding.severity == .error && report.fails)
        #expect(finding.message.contains("Post.date was Date, is String now"))
        #expect(finding.message.contains("Post.postID was optional, is required now"))
        #expect(!finding.message.contains("is new since") && !finding.message.contains("is gone since"))
    }

    @Test("a real store holding integers a narrowing mapping cannot keep fails its trial; in a generated store they are a note (issue #36)",
          SharedFixtures.required)
    func narrowedValuesInARealStore() throws {
        let folder = try TemporaryFolder()
        let root = SharedFixtures.url("wibosco-migration-example")
        // Two versions only, Post.postID Integer 64 in v1 and Integer 16 in v2; Migration1to2 copies it as it is.
        let postID = #"name="postID" optional="YES" attributeType="String""#
        let model = try editedWibosco(in: folder, [
            ("CoreDataMigration_Example", postID, #"name="postID" optional="YES" attributeType="Integer 64""#),
            ("CoreDataMigration_Example 2", postID, #"name="postID" optional="YES" attributeType="Integer 16""#),
        ])
        for later in ["CoreDataMigration_Example 3", "CoreDataMigration_Example 4"] {
            try FileManager.default.removeItem(at: model.appendingPathComponent("\(later).xcdatamodel"))
        }
        try Data(ModelFiles.currentVersion("CoreDataMigration_Example 2").utf8).write(to: model.appendingPathComponent(".xccurrentversion"))
        let stores = folder.url.appendingPathComponent("stores")
        try FileManager.default.createDirectory(at: stores, withIntermediateDirectories: true)
        let v1 = try #require(try ModelFileReader.read(at: model).version(named: "CoreDataMigration_Example"))
        try RepresentativeStore.write(at: stores.appendingPathComponent("saved-v1.sqlite"), model: v1)
        let options = ModelCheck.Options(mappingModelFiles: [root.appendingPathComponent("Mappings/Migration1to2.xcmappingmodel")],
                                         storesFolder: stores)
        let report = try ModelCheck.run(modelAt: model, options: options)
        #expect(report.findings.contains { $0.kind == .narrowedType && $0.severity == .warning })
        let real = try #require(report.trials.first { $0.name == "saved-v1.sqlite" })
        #expect(real.outcome == .failed)
        #expect(real.problems.contains { $0.hasPrefix("Post.postID is Integer 16, but ") && $0.contains("outside its range") }, "\(real.problems)")
        let generated = try #require(report.trials.first { $0.name.hasPrefix("generated") })
        #expect(generated.outcome == .passed, "\(generated.problems)")
        #expect(generated.notes.contains { $0.hasPrefix("Post.postID is Integer 16, but ") })
    }

    @Test("a to-many relationship without an inverse: a warning that no trial runs through the step, not a chain gap; --strict fails (issue #36)")
    func toManyWithoutInverse() throws {
        let folder = #"<entity name="Folder"><attribute name="title" optional="YES" attributeType="String"/><relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note"/></entity>"#
        let report = try Self.check([Self.note + folder, Self.note.replacingOccurrences(of: "</entity>", with: #"<attribute name="extra" optional="YES" attributeType="Date"/></entity>"#) + folder])
        #expect(!report.findings.contains { $0.kind == .chainGap })
        let finding = try #require(report.findings.first { $0.kind == .notStorableHere })
        #expect(finding.severity == .warning && finding.location == "v1 -> v2")
        #expect(finding.message.contains("property notes: a to-many relationship needs an inverse") && finding.message.contains("Core Data may"))
        #expect(report.routes.first?.steps.first?.isUncheckedHere == true)
        #expect(report.lines.contains("v1 -> current: not checked here"))
        #expect(!report.fails && report.verdict == "pass with warnings")
        var strict = report
        strict.strict = true
        #expect(strict.fails)
        // In JUnit, the route is skipped, saying why, rather than passed.
        let xml = JUnitReport.xml(report)
        #expect(xml.contains("<skipped message=\"not checked here: not checked: this program cannot store M or M v2\"/>"), "\(xml)")
    }

    @Test("a folder that is not there, a file that is not a model: a ModelCheckError naming the path")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let missing = folder.url.appendingPathComponent("Nope.xcdatamodeld")
        #expect(throws: ModelCheckError.self) { try ModelCheck.run(modelAt: missing) }
        do {
            _ = try ModelCheck.run(modelAt: missing)
        } catch let error as ModelCheckError {
            #expect(error.description.hasPrefix("\(missing.path): cannot read the model"))
        }
        #expect(throws: ModelCheckError.self) { try ModelCheck.mappingModelFiles(in: missing) }
        let text = try folder.write("not a model", to: "Model.xcdatamodeld/contents")
        #expect(throws: ModelCheckError.self) { try ModelCheck.run(modelAt: text.deletingLastPathComponent()) }
    }

    @Test("any other type change (Integer 16 -> Integer 64) without a mapping model: an error, not a narrowing")
    func typeChanged() throws {
        let small = Self.note.replacingOccurrences(of: #"attributeType="Integer 64""#, with: #"attributeType="Integer 16""#)
        let report = try Self.check([small, Self.note])
        #expect(kinds(report, .error).sorted { $0.rawValue < $1.rawValue } == [.chainGap, .typeChanged])
        #expect(!report.findings.contains { $0.kind == .narrowedType })
    }

    /// A copy of wibosco's Migration1to2 with its destination version renamed in the file.
    private func editedMapping(in folder: TemporaryFolder, destination: String) throws -> URL {
        let original = SharedFixtures.url("wibosco-migration-example/Mappings/Migration1to2.xcmappingmodel")
        let copy = try folder.copy(original)
        let file = copy.appendingPathComponent("xcmapping.xml")
        let xml = try String(contentsOf: file, encoding: .utf8)
        let edited = xml.replacingOccurrences(of: "CoreDataMigration_Example 2.xcdatamodel<", with: "\(destination).xcdatamodel<")
        #expect(edited != xml)
        try Data(edited.utf8).write(to: file)
        return copy
    }

    @Test("a mapping model between versions that are not consecutive: a warning that the chain never uses it", SharedFixtures.required)
    func mappingModelUnused() throws {
        let folder = try TemporaryFolder()
        let mapping = try editedMapping(in: folder, destination: "CoreDataMigration_Example 3")
        let report = try ModelCheck.run(modelAt: SharedFixtures.url("wibosco-migration-example/CoreDataMigration_Example.xcdatamodeld"),
                                        options: ModelCheck.Options(mappingModelFiles: [mapping], generateStores: false))
        let finding = try #require(report.findings.first { $0.kind == .mappingModelUnused })
        #expect(finding.severity == .warning && finding.message.hasPrefix("maps v1 to v3, not a step of the chain"))
    }

    @Test("a mapping model naming a version the model lacks: an error naming the file", SharedFixtures.required)
    func mappingModelUnreadable() throws {
        let folder = try TemporaryFolder()
        let mapping = try editedMapping(in: folder, destination: "CoreDataMigration_Example 9")
        let report = try ModelCheck.run(modelAt: SharedFixtures.url("wibosco-migration-example/CoreDataMigration_Example.xcdatamodeld"),
                                        options: ModelCheck.Options(mappingModelFiles: [mapping], generateStores: false))
        let finding = try #require(report.findings.first { $0.kind == .mappingModelUnreadable })
        #expect(finding.severity == .error && finding.location == "Migration1to2.xcmappingmodel")
        #expect(finding.message.contains("CoreDataMigration_Example 9"))
    }
}
