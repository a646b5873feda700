import Foundation
import Testing
import TestSupport

@Suite("uncloudnotes model check")
struct ModelCheckCommandTests {
    @Test("the app's own model passes: exit 0, every route migrates, every trial passes (make test runs this)")
    func appsModel() throws {
        let result = try BuiltExecutable.run(["model", "check"])
        #expect(result.exitCode == 0, "\(result.standardOutput)\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        for label in ["v1", "v2", "v3", "v4"] { #expect(lines.contains("\(label) -> current: migrates")) }
        #expect(lines.filter { $0.hasPrefix("  trial: passed") }.count == 4)
        #expect(!lines.contains { $0.hasPrefix("  error") })
        // Its one warning: v4 -> v5 reads no plain Attachment (the app stores ImageAttachments only),
        // so the v4 trial leaves them out and says so.
        #expect(lines.filter { $0.hasPrefix("  warning") }
            == ["  warning [entityUnmapped] v4 -> v5: no entity mapping of UnCloudNotesMappingModel_v4_to_v5 reads Attachment objects "
                + "(a mapping reads its entity exactly, not its sub-entities): Core Data drops them without a word; this engine refuses "
                + "a store that has any"])
        #expect(lines.contains("    (no Attachment objects generated: no entity mapping reads them (see the warning))"))
        #expect(lines.last?.hasPrefix("pass") == true && lines.last?.contains("0 error(s)") == true)
    }

    @Test("--json and --junit: the verdict for scripts, and one JUnit case per route")
    func jsonAndJUnit() throws {
        let folder = try TemporaryFolder()
        let junit = folder.url.appendingPathComponent("check.xml")
        let result = try BuiltExecutable.run(["model", "check", "--json", "--junit", junit.path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(report["errors"] as? Int == 0)
        #expect((report["routes"] as? [Any])?.count == 4)
        #expect((report["trials"] as? [[String: Any]])?.allSatisfy { $0["outcome"] as? String == "passed" } == true)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 4)
        #expect(!xml.contains("<failure"))
    }

    @Test("errors exit 3; --strict makes warnings exit 4")
    func exitCodes() throws {
        let folder = try TemporaryFolder()
        let note = #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
        let broken = try ModelCheckCommandTests.model([note, note.replacingOccurrences(of: #"name="body" optional="YES""#, with: #"name="body""#)], in: folder, named: "Broken")
        let failing = try BuiltExecutable.run(["model", "check", broken.path])
        #expect(failing.exitCode == 3)
        #expect(failing.standardOutput.contains("error [requiredWithoutDefault] v1 -> v2: Note.body is made required without a default value"))
        #expect(!failing.standardOutput.contains("only a step-by-step migration"), "not under a route that cannot migrate: \(failing.standardOutput)")
        let lossy = try ModelCheckCommandTests.model([note, note.replacingOccurrences(of: #"<attribute name="body" optional="YES" attributeType="String"/>"#, with: "")],
                                                     in: folder, named: "Lossy")
        #expect(try BuiltExecutable.run(["model", "check", lossy.path]).exitCode == 0)
        #expect(try BuiltExecutable.run(["model", "check", lossy.path, "--strict"]).exitCode == 4)
    }

    @Test("a check killed before it could clean up: the next check removes its scratch folder, and leaves a running check's and look-alikes alone (issue #36)")
    func abandonedScratchFolders() throws {
        let folder = try TemporaryFolder()
        let temporary = folder.url.appendingPathComponent("tmp")
        func checkFolder(_ name: String) throws -> URL {
            let url = temporary.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.appendingPathComponent("generated-v1"), withIntermediateDirectories: true)
            return url
        }
        // A killed check's folder: named as a check names it, its lock file not held by anyone.
        let abandoned = try checkFolder("model-check-4242-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: abandoned.appendingPathComponent("check.lock").path, contents: nil))
        // A running check's: its lock held (here by this process, as a check in another container would).
        let running = try checkFolder("model-check-4243-\(UUID().uuidString)")
        let lock = open(running.appendingPathComponent("check.lock").path, O_RDWR | O_CREAT, 0o600)
        #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        defer { close(lock) }
        // Look-alikes that are not a check's: kept whatever their number.
        let lookAlikes = [try checkFolder("model-check-notes"), try checkFolder("model-check-2024-results"),
                          try checkFolder("model-check-4244-\(UUID().uuidString)")]
        #expect(FileManager.default.createFile(atPath: temporary.appendingPathComponent("model-check-42.log").path, contents: Data("log".utf8)))
        let result = try BuiltExecutable.run(["model", "check"], environment: ["TMPDIR": temporary.path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
        #expect(left == (([running] + lookAlikes).map(\.lastPathComponent) + ["model-check-42.log"]).sorted(), "\(left)")
    }

    @Test("bad input: one line on stderr and exit 1, never a crash")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let missing = try BuiltExecutable.run(["model", "check", folder.url.appendingPathComponent("Nope.xcdatamodeld").path])
        #expect(missing.exitCode == 1)
        #expect(missing.standardError.split(separator: "\n").count == 1)
        #expect(missing.standardError.contains("Nope.xcdatamodeld: cannot read the model"))
        let noMappings = try BuiltExecutable.run(["model", "check", "--mappings", folder.url.appendingPathComponent("none").path])
        #expect(noMappings.exitCode == 1 && noMappings.standardError.contains("cannot read the mapping models"))
        let noStores = try BuiltExecutable.run(["model", "check", "--stores", folder.url.appendingPathComponent("none").path])
        #expect(noStores.exitCode == 1 && noStores.standardError.contains("cannot read the stores"))
    }

    @Test("--app-policy acknowledges the app's own policy class: no error, its trials skipped and counted so, <skipped/> in JUnit (issue #36)",
          SharedFixtures.required)
    func appPolicy() throws {
        let root = SharedFixtures.url("wibosco-migration-example")
        let arguments = ["model", "check", root.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld").path,
                         "--mappings", root.appendingPathComponent("Mappings").path, "--stores", root.appendingPathComponent("stores").path]
        let policy = "CoreDataMigration_Example.Post2ToPost3MigrationPolicy"
        let refused = try BuiltExecutable.run(arguments)
        #expect(refused.exitCode == 3)
        #expect(refused.standardOutput.contains("error [unknownPolicy]") && refused.standardOutput.contains("--app-policy \(policy)"))
        let folder = try TemporaryFolder()
        let junit = folder.url.appendingPathComponent("check.xml")
        let acknowledged = try BuiltExecutable.run(arguments + ["--app-policy", policy, "--junit", junit.path])
        #expect(acknowledged.exitCode == 0, "\(acknowledged.standardOutput)\(acknowledged.standardError)")
        let lines = acknowledged.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("  trial: skipped: policy \(policy) is the app's code") }.count == 2)
        // Routes v1 and v2 and the stores saved at them go through the policy; the v4 store needs nothing.
        #expect(lines.last == "pass: 0 error(s), 0 warning(s), 2 trial migration(s) passed, 0 failed, 5 skipped")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<skipped message=").count - 1 == 5)
        #expect(xml.contains(#"failures="0" errors="0" skipped="5""#) && !xml.contains("<failure"))
    }

    /// Found by a new user's trial: with --strict the job went red (exit 4) while the text, the
    /// JSON and the JUnit report all said it passed; a check that could not run left an earlier
    /// green report in place; a model folder given through a link was not read.
    @Test("--strict fails in the verdict, the JSON and JUnit as in the exit status; a check that cannot run leaves a failing JUnit report; links are followed")
    func reportsAgree() throws {
        let folder = try TemporaryFolder()
        let note = #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
        let lossy = try ModelCheckCommandTests.model([note, note.replacingOccurrences(of: #"<attribute name="body" optional="YES" attributeType="String"/>"#, with: "")],
                                                     in: folder, named: "Lossy")
        let junit = folder.url.appendingPathComponent("report.xml")
        let strict = try BuiltExecutable.run(["model", "check", lossy.path, "--strict", "--junit", junit.path])
        #expect(strict.exitCode == 4 && strict.standardOutput.split(separator: "\n").last?.hasPrefix("fail (strict") == true, "\(strict.standardOutput)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<failure") && !xml.contains(#"failures="0""#), "JUnit fails too: \(xml)")
        let json = try BuiltExecutable.run(["model", "check", lossy.path, "--strict", "--json"])
        let verdict = (try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])?["verdict"] as? String
        #expect(verdict?.hasPrefix("fail") == true && json.exitCode == 4)

        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link.xcdatamodeld").path, withDestinationPath: lossy.path)
        #expect(try BuiltExecutable.run(["model", "check", folder.url.appendingPathComponent("link.xcdatamodeld").path]).exitCode == 0)

        let broken = try folder.write("not a model", to: "Broken.xcdatamodeld/Broken.xcdatamodel/contents")
        let cannot = try BuiltExecutable.run(["model", "check", broken.deletingLastPathComponent().deletingLastPathComponent().path, "--junit", junit.path])
        #expect(cannot.exitCode == 1)
        let failed = try String(contentsOf: junit, encoding: .utf8)
        #expect(failed.contains(#"type="couldNotRun""#) && failed.contains(#"failures="1""#), "the earlier report is replaced: \(failed)")
        // A report that cannot be written is said after the text report, which is printed whole.
        let full = try BuiltExecutable.run(["model", "check", lossy.path, "--junit", "/dev/full"])
        #expect(full.exitCode == 1 && full.standardError.contains("cannot write the JUnit report /dev/full"), "\(full.standardError)")
        #expect(full.standardOutput.contains("pass with warnings"))
    }

    /// Found by a new user's trial: making an optional attribute required with a default (a
    /// lightweight migration Core Data infers) failed the trial, which expected the empty value
    /// to stay empty where the migration rightly gave it the default.
    @Test("an optional attribute made required with a default passes: the trial expects the default where there was no value")
    func requiredWithDefault() throws {
        let folder = try TemporaryFolder()
        let note = #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
        let model = try ModelCheckCommandTests.model([note, note.replacingOccurrences(of: #"name="body" optional="YES""#, with: #"name="body" defaultValueString="none""#)],
                                                     in: folder, named: "Defaulted")
        let result = try BuiltExecutable.run(["model", "check", model.path])
        #expect(result.exitCode == 0 && !result.standardOutput.contains("migrationFailed"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("1 trial migration(s) passed"), "\(result.standardOutput)")
    }

    @Test("--mappings is repeatable: mapping models from two folders are both used (issue #36)", SharedFixtures.required)
    func mappingsFromTwoFolders() throws {
        let root = SharedFixtures.url("wibosco-migration-example")
        let folder = try TemporaryFolder()
        for (name, into) in [("Migration1to2", "first"), ("Migration2to3", "second")] {
            let target = folder.url.appendingPathComponent("\(into)/\(name).xcmappingmodel")
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent("Mappings/\(name).xcmappingmodel"), to: target)
        }
        let result = try BuiltExecutable.run(["model", "check", root.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld").path,
                                              "--mappings", folder.url.appendingPathComponent("first").path,
                                              "--mappings", folder.url.appendingPathComponent("second").path, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let steps = ((report["routes"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])?.compactMap { $0["how"] as? String } ?? []
        #expect(steps.first == "mapping model Migration1to2" && steps.dropFirst().first?.hasPrefix("mapping model Migration2to3") == true, "\(steps)")
    }

    @Test("a misspelt --app-policy is a warning naming it, the policy stays an error; an empty --mappings folder is refused (issue #36)",
          SharedFixtures.required)
    func misspeltPolicyAndEmptyMappings() throws {
        let root = SharedFixtures.url("wibosco-migration-example")
        let model = root.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld").path
        let misspelt = try BuiltExecutable.run(["model", "check", model, "--mappings", root.appendingPathComponent("Mappings").path,
                                                "--app-policy", "Post2ToPost3MigrationPolcy"])
        #expect(misspelt.exitCode == 3)
        #expect(misspelt.standardOutput.contains("warning [appPolicyUnused]") && misspelt.standardOutput.contains("Post2ToPost3MigrationPolcy"),
                "\(misspelt.standardOutput)")
        #expect(misspelt.standardOutput.contains("error [unknownPolicy]"))
        let folder = try TemporaryFolder()
        let empty = try BuiltExecutable.run(["model", "check", model, "--mappings", folder.url.path])
        #expect(empty.exitCode == 1 && empty.standardError.contains("no mapping models found") && empty.standardOutput.isEmpty, "\(empty.standardError)")
    }

    @Test("a store already at the current version is a skipped trial, not a passed one: in the summary and in JUnit (issue #36)")
    func skippedTrial() throws {
        let folder = try TemporaryFolder()
        let stores = folder.url.appendingPathComponent("stores")
        try FileManager.default.createDirectory(at: stores, withIntermediateDirectories: true)
        let add = try BuiltExecutable.run(["--store", stores.appendingPathComponent("current.sqlite").path, "notes", "add", "--title", "t", "--body", "b"])
        #expect(add.exitCode == 0, "\(add.standardError)")
        let junit = folder.url.appendingPathComponent("check.xml")
        let result = try BuiltExecutable.run(["model", "check", "--stores", stores.path, "--junit", junit.path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("store current.sqlite (v5): skipped: already at the current version: nothing to migrate"))
        #expect(lines.last?.hasSuffix("4 trial migration(s) passed, 0 failed, 1 skipped") == true, "\(lines.last ?? "")")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"<skipped message="already at the current version: nothing to migrate"/>"#))
        #expect(xml.contains(#"tests="5" failures="0" errors="0" skipped="1""#))
    }

    @Test("the app's own policies still run when named with --app-policy (issue #36)")
    func appsOwnPolicies() throws {
        let result = try BuiltExecutable.run(["model", "check", "--app-policy", "UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  trial: passed") }.count == 4)
    }

    @Test("SampleModel3: three versions, the current one first; the two after it are a warning (issue #36)", SharedFixtures.required)
    func sampleModel3() throws {
        let model = SharedFixtures.url("coredata-samplemodel3/SampleModel3.xcdatamodeld").path
        let result = try BuiltExecutable.run(["model", "check", model])
        #expect(result.exitCode == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains(": 3 version(s), current SampleModel3") == true, "\(lines.first ?? "")")
        #expect(lines.contains { $0.hasPrefix("  warning [versionsAfterCurrent]") })
        #expect(try BuiltExecutable.run(["model", "check", model, "--strict"]).exitCode == 4)
    }

    @Test("--stores: an empty folder, a file or a missing folder is one line on stderr and exit 1 (issue #36)")
    func unusableStores() throws {
        let folder = try TemporaryFolder()
        let empty = folder.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let file = try folder.write("", to: "v1.sqlite")
        for (stores, phrase) in [(empty, "no stores found"), (file, "not a folder"), (folder.url.appendingPathComponent("none"), "cannot read the stores")] {
            let result = try BuiltExecutable.run(["model", "check", "--stores", stores.path])
            #expect(result.exitCode == 1, "\(stores.lastPathComponent)")
            #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains(phrase), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test("--junit at a folder or in a missing folder: one line, exit 1, before the check runs; nothing written (issue #36)")
    func unwritableJUnit() throws {
        let folder = try TemporaryFolder()
        for (junit, phrase) in [(folder.url, "a folder, not a file"), (folder.url.appendingPathComponent("none/r.xml"), "no such folder")] {
            let result = try BuiltExecutable.run(["model", "check", "--junit", junit.path])
            #expect(result.exitCode == 1)
            #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains("cannot write the JUnit report"))
            #expect(result.standardError.contains(phrase), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("--junit replaces an earlier report whole (0600, no draft left), writes through a link to a file or a device, and leaves the link a link")
    func junitWrites() throws {
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        let report = try folder.write("an earlier report", to: "reports/r.xml")
        #expect(try BuiltExecutable.run(["model", "check", "--junit", report.path]).exitCode == 0)
        let written = try String(contentsOf: report, encoding: .utf8)
        #expect(written.hasPrefix("<?xml") && written.contains("<testsuites name=\"model check\""))
        #expect(try manager.attributesOfItem(atPath: report.path)[.posixPermissions] as? Int == 0o600)
        #expect(try manager.contentsOfDirectory(atPath: report.deletingLastPathComponent().path) == ["r.xml"])
        // Through links: were the report renamed into place, the link (the user's) would become a file.
        let device = folder.url.appendingPathComponent("null.xml"), link = folder.url.appendingPathComponent("link.xml")
        try manager.createSymbolicLink(atPath: device.path, withDestinationPath: "/dev/null")
        try manager.createSymbolicLink(atPath: link.path, withDestinationPath: report.path)
        try Data("older".utf8).write(to: report)
        for path in [device, link] { #expect(try BuiltExecutable.run(["model", "check", "--junit", path.path]).exitCode == 0) }
        #expect(try manager.destinationOfSymbolicLink(atPath: device.path) == "/dev/null")
        #expect(try manager.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType == .typeCharacterSpecial)
        #expect(try manager.destinationOfSymbolicLink(atPath: link.path) == report.path)
        #expect(try String(contentsOf: report, encoding: .utf8).contains("<testsuites name=\"model check\""), "the link's file got the report")
    }

    @Test("mapping models beside a model given without --mappings: a hint naming the folder to pass (issue #36)")
    func mappingsHint() throws {
        let folder = try TemporaryFolder()
        let note = #"<entity name="Note"><attribute name="title" attributeType="String"/></entity>"#
        let model = try ModelCheckCommandTests.model([note, note], in: folder, named: "Hinted")
        let alone = try BuiltExecutable.run(["model", "check", model.path])
        #expect(alone.exitCode == 0 && !alone.standardError.contains("hint:"))
        let mappings = folder.url.appendingPathComponent("Mappings")
        _ = try folder.write("", to: "Mappings/Hinted_v1_to_v2.xcmappingmodel/xcmapping.xml")
        let hinted = try BuiltExecutable.run(["model", "check", model.path])
        #expect(hinted.exitCode == 0)
        #expect(hinted.standardError.split(separator: "\n").map(String.init).filter { $0.hasPrefix("hint: ") && $0.hasSuffix("--mappings \(mappings.path)") }.count == 1,
                "\(hinted.standardError)")
        let given = try BuiltExecutable.run(["model", "check", model.path, "--mappings", mappings.path])
        #expect(!given.standardError.contains("hint:"))
    }

    static func model(_ versions: [String], in folder: TemporaryFolder, named name: String) throws -> URL {
        let bundle = folder.url.appendingPathComponent("\(name).xcdatamodeld")
        for (index, xml) in versions.enumerated() {
            try ModelFiles.writeVersion(index == 0 ? name : "\(name) v\(index + 1)", entities: xml, in: bundle)
        }
        try folder.write(ModelFiles.currentVersion("\(name) v\(versions.count)"), to: "\(name).xcdatamodeld/.xccurrentversion")
        return bundle
    }
}
