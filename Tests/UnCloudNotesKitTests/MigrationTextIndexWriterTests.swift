import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport
@testable import UnCloudNotesKit

/// The migration's last stage builds the search index from the store read without locks; another
/// program that writes the store meanwhile makes that build untrustworthy.
@Suite struct MigrationTextIndexWriterTests {
    @Test("a store written while the migration built its search index: the index is marked for rebuilding, and the first search rebuilds it whole and finds the write (issue #38)")
    func storeWrittenDuringTheIndexBuild() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 1, in: folder)
        // Another program's connection, open until the migration ends: its write stays in the
        // store's `-wal`, so the store's stamp changes however close in time the two writes are.
        var writer: DatabaseQueue?
        var warnings = 0
        var indexedCleanly = false
        let book = try UnCloudNotesStack(storeURL: url).open { event in
            switch event {
            case .indexingText(let fraction) where fraction > 0 && writer == nil:
                // Between the build's reading of the store and its check of the store's stamp.
                do {
                    let store = try DatabaseQueue(path: url.path)
                    try store.write { db in
                        try db.execute(sql: "UPDATE ZNOTE SET ZTITLE = 'Written meanwhile', Z_OPT = Z_OPT + 1 WHERE Z_PK = 1")
                    }
                    writer = store
                } catch {
                    Issue.record(error, "the other program's write failed")
                }
            case .warning: warnings += 1
            case .textIndexed: indexedCleanly = true
            default: break
            }
        }
        #expect(writer != nil, "the build reported no progress to write during")
        #expect(warnings == 1 && !indexedCleanly, "the migration trusted an index built while the store changed")
        // Marked, not merely left unfinished: the side file lost its identity (a build that failed
        // would have kept it), so whoever opens it next rebuilds it.
        let side = try DatabaseQueue(path: url.path + "-search")
        #expect(try side.read { db in try db.tableExists("meta") } == false)
        try side.close()
        try writer?.close()
        #expect(try book.noteIDs(matching: "meanwhile").count == 1)
        #expect(book.searchIndex?.rebuiltEntryCount == AppStores.notes.count, "the first search did not rebuild the index whole")
    }
}
