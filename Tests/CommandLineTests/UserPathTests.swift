import Foundation
import Testing
import TestSupport

@Suite("paths the user types")
struct UserPathTests {
    @Test("~ in --store (as --store=~/… passes it, unexpanded by the shell) is $HOME, not the account's home")
    func tildeInStore() throws {
        let home = try TemporaryFolder()
        let added = try BuiltExecutable.run(["--store=~/notes/n.sqlite", "--create-folders", "notes", "add", "--title", "Home", "--body", "x"],
                                            environment: ["HOME": home.url.path])
        #expect(added.exitCode == 0, "\(added.standardError)")
        #expect(FileManager.default.fileExists(atPath: home.url.appendingPathComponent("notes/n.sqlite").path))
        let listed = try BuiltExecutable.run(["--store=~/notes/n.sqlite", "notes", "list"], environment: ["HOME": home.url.path])
        #expect(listed.standardOutput.contains("Home"), "\(listed.standardError)")
    }
}
