import Foundation
import Testing
import TestSupport

@Suite("--sql-debug")
struct SQLDebugOptionTests {
    @Test("--sql-debug logs the SQL of notes and store commands to stderr, keeping stdout as it is")
    func logsToStandardError() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite").path
        let added = try BuiltExecutable.run(["--sql-debug", "--store", store, "notes", "add", "--title", "a", "--body", "b"])
        #expect(added.exitCode == 0 && added.standardOutput == "added note 1\n", "\(added.standardError)")
        #expect(added.standardError.contains("ManagedStore.SQL") && added.standardError.contains("INSERT INTO ZNOTE"))
        let quiet = try BuiltExecutable.run(["store", "info", store])
        let logged = try BuiltExecutable.run(["--sql-debug", "store", "info", store])
        #expect(logged.standardOutput == quiet.standardOutput)
        #expect(!quiet.standardError.contains("ManagedStore.SQL"))
        #expect(logged.standardError.contains("ManagedStore.SQL") && logged.standardError.contains("SELECT"))
    }

    @Test("MANAGEDSTORE_SQL_DEBUG=1 turns the same log on for a run that cannot pass the flag")
    func environmentFallback() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite").path
        let added = try BuiltExecutable.run(["--store", store, "notes", "add", "--title", "a", "--body", "b"],
                                            environment: ["MANAGEDSTORE_SQL_DEBUG": "1"])
        #expect(added.exitCode == 0, "\(added.standardError)")
        #expect(added.standardError.contains("ManagedStore.SQL") && added.standardError.contains("INSERT INTO ZNOTE"))
    }
}
