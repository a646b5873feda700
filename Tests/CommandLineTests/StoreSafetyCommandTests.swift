import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("uncloudnotes store … and notes … on stores that need care")
struct StoreSafetyCommandTests {
    private static let wibosco = "wibosco-migration-example"

    private func contents(_ folder: TemporaryFolder) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
    }

    @Test("info and export of an old store need no migration path; info shows why there is none, exit 0", SharedFixtures.required)
    func inspectionNeedsNoPlan() throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(SharedFixtures.url("\(Self.wibosco)/stores/CoreDataMigration_Example_1.sqlite"))
        let model = SharedFixtures.url("\(Self.wibosco)/CoreDataMigration_Example.xcdatamodeld").path
        let info = try BuiltExecutable.run(["store", "info", url.path, "--model", model])
        #expect(info.exitCode == 0, "\(info.standardError)")
        #expect(info.standardOutput.contains("objects: Post 1001"))
        #expect(info.standardOutput.contains("migration: not possible to CoreDataMigration_Example 4: "))
        #expect(info.standardOutput.contains("relationship Post.color was added as required"))
        let export = try BuiltExecutable.run(["store", "export", url.path, "--model", model])
        #expect(export.exitCode == 0, "\(export.standardError)")
        #expect(export.standardOutput.hasPrefix("Post (1001)\n"))
    }

    @Test("--dry-run names each custom policy the program lacks, once, and says the migration would be refused", SharedFixtures.required)
    func dryRunNamesMissingPolicies() throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(SharedFixtures.url("\(Self.wibosco)/stores/CoreDataMigration_Example_1.sqlite"))
        let before = try Data(contentsOf: url)
        let arguments = ["store", "migrate", url.path, "--model", SharedFixtures.url("\(Self.wibosco)/CoreDataMigration_Example.xcdatamodeld").path,
                         "--mappings", SharedFixtures.url("\(Self.wibosco)/Mappings").path]
        let dry = try BuiltExecutable.run(arguments + ["--dry-run"])
        #expect(dry.exitCode == 1)
        #expect(dry.standardOutput.contains("3 steps"))
        #expect(dry.standardError.split(separator: "\n").count == 1)
        #expect(dry.standardError.contains("the migration would be refused"))
        #expect(dry.standardError.components(separatedBy: "CoreDataMigration_Example.Post2ToPost3MigrationPolicy").count == 2)
        let run = try BuiltExecutable.run(arguments)
        #expect(run.exitCode == 1)
        #expect(run.standardError.contains("refused"))
        #expect(try Data(contentsOf: url) == before)
        #expect(try contents(folder).isSubset(of: [url.lastPathComponent, url.lastPathComponent + ".lock"]))
    }

    @Test("--model-version is honoured together with --model", SharedFixtures.required)
    func modelVersionWithModel() throws {
        let folder = try TemporaryFolder()
        let url = try folder.copyStore(SharedFixtures.url("coredata-samplemodel3/SampleModel3_V1.sqlite"))
        let model = SharedFixtures.url("coredata-samplemodel3/SampleModel3.xcdatamodeld").path
        let info = try BuiltExecutable.run(["--model-version", "SampleModel3_v2", "store", "info", url.path, "--model", model])
        #expect(info.exitCode == 0, "\(info.standardError)")
        #expect(info.standardOutput.contains("migration: needed, 1 step to SampleModel3_v2"), "\(info.standardOutput)")
    }

    @Test("reading commands on a mistyped store create nothing; adding a note (its folder made on request) creates the store and says so")
    func onlyWritersCreateStores() throws {
        let folder = try TemporaryFolder()
        let typo = folder.url.appendingPathComponent("typo/notes.sqlite")
        for command in [["notes", "list"], ["notes", "show", "1"], ["notes", "export"]] {
            let result = try BuiltExecutable.run(["--store", typo.path] + command)
            #expect(result.exitCode == 1, "\(command)")
            #expect(result.standardError == "uncloudnotes: \(typo.path): no such store: check the path (--store); adding a note creates a new store\n")
            #expect(try contents(folder).isEmpty, "\(command) created files")
        }
        let refused = try BuiltExecutable.run(["--store", typo.path, "notes", "add", "--title", "first", "--body", "b"])
        #expect(try refused.exitCode == 1 && contents(folder).isEmpty, "a missing folder is asked for, not made")
        let add = try BuiltExecutable.run(["--store", typo.path, "--create-folders", "notes", "add", "--title", "first", "--body", "b"])
        #expect(add.exitCode == 0, "\(add.standardError)")
        #expect(add.standardError.contains("created new store \(typo.path)"))
        let again = try BuiltExecutable.run(["--store", typo.path, "notes", "add", "--title", "second", "--body", "b"])
        #expect(!again.standardError.contains("created new store"))
    }

    @Test("errors are one line naming the file and what to do", arguments: ["info", "export", "migrate"])
    func oneLineErrors(command: String) throws {
        let folder = try TemporaryFolder()
        let result = try BuiltExecutable.run(["store", command, folder.url.path])
        #expect(result.exitCode == 1)
        #expect(result.standardError == "uncloudnotes: \(folder.url.path): this is a folder, not a store file: give the path of the .sqlite file\n")
    }

    @Test("a backup path taken by a folder: one line, the store unchanged")
    func backupFolderInTheWay() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v1", into: folder)
        let before = try Data(contentsOf: url)
        try FileManager.default.createDirectory(atPath: url.path + ".v1-backup", withIntermediateDirectories: false)
        let result = try BuiltExecutable.run(["store", "migrate", url.path])
        #expect(result.exitCode == 1)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.contains("\(url.path).v1-backup: a folder is where the backup goes; move it away"))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("after a migration only the store, its lock and its backup remain: no -wal, no -shm, all private")
    func migrationLeavesOnlyTheStore() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v2", into: folder)
        let add = try BuiltExecutable.run(["--store", url.path, "--model-version", "v2", "notes", "add", "--title", "t", "--body", "b"])
        #expect(add.exitCode == 0, "\(add.standardError)")
        let run = try BuiltExecutable.run(["store", "migrate", url.path])
        #expect(run.exitCode == 0, "\(run.standardError)")
        let name = url.lastPathComponent
        // The store's search index is built as the migration's last stage (issue #38).
        #expect(try contents(folder) == [name, name + "-search", name + ".lock", name + ".v2-backup"])
        for file in [name + "-search", name + ".lock", name + ".v2-backup"] {
            let mode = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent(file).path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600, "\(file)")
        }
    }

    @Test("two aliases of one store share its lock: a migration through one waits while the lock is held through the other")
    func aliasesShareTheLock() throws {
        let folder = try TemporaryFolder()
        let real = try ProjectFixtures.copyStore("v1", into: folder)
        let first = folder.url.appendingPathComponent("first-alias.sqlite")
        let second = folder.url.appendingPathComponent("second-alias.sqlite")
        try FileManager.default.createSymbolicLink(at: first, withDestinationURL: real)
        try FileManager.default.createSymbolicLink(at: second, withDestinationURL: first)
        let running: BuiltExecutable.Running
        do {
            let held = try StoreLock(for: try UnCloudNotesStack(storeURL: second).migrator.realStoreURL)
            running = try BuiltExecutable.Running(["store", "migrate", first.path, "--json"])
            #expect(running.nextLine() == #"{"event":"waiting"}"#)
            withExtendedLifetime(held) {}
        }
        let rest = running.finish()
        #expect(rest.status == 0)
        #expect(rest.lines.contains { $0.contains(#""event":"finished""#) })
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: first.path) == real.path)
    }

    @Test("a new store in a folder that does not exist is refused, nothing made; --create-folders makes it, private (issue #38)")
    func missingFolder() throws {
        let folder = try TemporaryFolder()
        let typo = folder.url.appendingPathComponent("typo/dir/x.sqlite")
        let refused = try BuiltExecutable.run(["--store", typo.path, "notes", "add", "--title", "T", "--body", "b"])
        #expect(refused.exitCode == 1 && refused.standardError.contains("typo/dir does not exist; check --store, or give --create-folders"),
                "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("typo").path))
        let made = try BuiltExecutable.run(["--store", typo.path, "--create-folders", "notes", "add", "--title", "T", "--body", "b"])
        #expect(made.exitCode == 0, "\(made.standardError)")
        let mode = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("typo").path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("a read-only store and folder can be listed and exported, an old one as its own version, not migrated (said plainly); nothing is written")
    func readOnlyStores() throws {
        let folder = try TemporaryFolder()
        let current = try ProjectFixtures.copyStore("v3", into: folder, as: "current.sqlite")
        let old = try ProjectFixtures.copyStore("v1", into: folder, as: "old.sqlite")
        let migrated = try BuiltExecutable.run(["store", "migrate", current.path])
        #expect(migrated.exitCode == 0)
        try FileManager.default.removeItem(atPath: current.path + ".v3-backup")
        try FileManager.default.removeItem(atPath: current.path + ".lock")
        for file in [current, old] { #expect(chmod(file.path, 0o444) == 0) }
        #expect(chmod(folder.url.path, 0o555) == 0)
        defer { chmod(folder.url.path, 0o755) }
        let before = try contents(folder)

        let list = try ReadOnlyUser.run(["--store", current.path, "notes", "list"])
        #expect(list.exitCode == 0, "\(list.standardError)")
        #expect(!list.standardOutput.isEmpty)
        let export = try ReadOnlyUser.run(["store", "export", old.path])
        #expect(export.exitCode == 0, "\(export.standardError)")
        #expect(export.standardOutput.hasPrefix("Note (12)"))
        let migrate = try ReadOnlyUser.run(["store", "migrate", old.path])
        #expect(migrate.exitCode == 1)
        #expect(migrate.standardError.contains("read-only, so it cannot be migrated"), "\(migrate.standardError)")
        #expect(migrate.standardError.split(separator: "\n").count == 1)
        #expect(try contents(folder) == before)
        for change in [["notes", "add", "--title", "New", "--body", "x"], ["notes", "delete", "1"], ["notes", "edit", "1", "--body", "y"]] {
            let refused = try ReadOnlyUser.run(["--store", current.path] + change)
            #expect(refused.exitCode == 1, "\(change)")
            #expect(refused.standardError.contains("is read-only, nothing was written: you cannot write the file or its folder")
                    && !refused.standardError.contains("SQLite") && refused.standardError.split(separator: "\n").count == 1,
                    "\(change): \(refused.standardError)")
        }
        // An old store is read as its own version (upgrading it would write it), saying so.
        for reading in [["notes", "list"], ["notes", "show", "1"], ["notes", "export"]] {
            let read = try ReadOnlyUser.run(["--store", old.path] + reading)
            #expect(read.exitCode == 0 && !read.standardOutput.isEmpty, "\(reading): \(read.standardError)")
            #expect(read.standardError.contains("read as v1 and not upgraded"), "\(reading): \(read.standardError)")
        }
        #expect(try contents(folder) == before)
        // The app shows it too, as v1 and read-only, instead of an upgrade that cannot happen.
        let launcher = geteuid() == 0 ? "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let app = try TmuxSession(command: "\(launcher)'\(BuiltExecutable.url.path)' --store '\(old.path)'; echo EXITED:$?; sleep 60",
                                  environment: ["LANG": "C.UTF-8", "HOME": folder.url.path,
                                                "XDG_CONFIG_HOME": folder.url.appendingPathComponent("config").path,
                                                "XDG_DATA_HOME": folder.url.appendingPathComponent("data").path])
        let screen = try app.waitFor("read-only store: changes cannot be saved")
        #expect(screen.contains(" v1 "), "\(screen)")
        try app.press("q")
        try app.waitFor("EXITED:0")
        #expect(try contents(folder) == before)
    }
}

/// Runs the binary as a user who cannot write the test's files: `nobody` when the tests run as
/// root (who may write anything), the current user otherwise.
enum ReadOnlyUser {
    static func run(_ arguments: [String]) throws -> BuiltExecutable.Result {
        guard geteuid() == 0 else { return try BuiltExecutable.run(arguments) }
        return try BuiltExecutable.run(arguments, launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
    }
}
