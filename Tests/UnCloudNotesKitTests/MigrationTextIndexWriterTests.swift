import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport
@testable import UnCloudNotesKit

/// The migration's last stage builds the search index from the store read without locks; another
/// program that writes the store meanwhile makes that build untrustworthy.
@Suite struct MigrationTextIndexWriterTests {
    @Test("a store written while the migration built its search index: the index is not trusted, the first search rebuilds it whole and finds the write (issue #34)")
    func storeWrittenDuringTheIndexBuild() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 1, in: folder)
        var wroteDuringBuild = false
        var warnings = 0
        var indexedCleanly = false
        let book = try UnCloudNotesStack(storeURL: url).open { event in
            switch event {
            case .indexingText(let fraction) where fraction > 0 && !wroteDuringBuild:
                // Another program's save, between the build's reading of the store and its check of the store's stamp.
                wroteDuringBuild = true
                do {
                    let store = try DatabaseQueue(path: url.path)
                    try store.write { db in
                        try db.execute(sql: "UPDATE ZNOTE SET ZTITLE = 'Written meanwhile', Z_OPT = Z_OPT + 1 WHERE Z_PK = 1")
                    }
                    try store.close()
                } catch {
                    Issue.record(error, "the other program's write failed")
                }
            case .warning: warnings += 1
            case .textIndexed: indexedCleanly = true
            default: break
            }
        }
        #expect(wroteDuringBuild, "the build reported no progress to write during")
        #expect(warnings == 1 && !indexedCleanly, "the migration trusted an index built while the store changed")
        #expect(try book.noteIDs(matching: "meanwhile").count == 1)
        #expect(book.searchIndex?.rebuiltEntryCount == AppStores.notes.count, "the first search did not rebuild the index whole")
    }
}
