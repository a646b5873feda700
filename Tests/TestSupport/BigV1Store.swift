import Foundation
import GRDB
import ManagedStore

/// A v1 store of many notes, written by the engine's store layout and filled by one SQL statement:
/// big enough that its upgrade takes seconds, long enough to be interrupted by a person.
public enum BigV1Store {
    /// Creates `name` in the folder with `notes` notes (short titles and bodies), closed and synced.
    public static func make(in folder: TemporaryFolder, notes: Int, name: String = "big.sqlite") throws -> URL {
        let v1 = try ModelFileReader.read(at: SharedFixtures.packageRoot
            .appendingPathComponent("Resources/UnCloudNotesDataModel.xcdatamodeld")).versions[0]
        let url = folder.url.appendingPathComponent(name)
        let store = try PersistentStore.create(at: url, model: v1)
        try store.database.write { db in
            try db.execute(sql: """
                WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < ?)
                INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZDISPLAYINDEX, ZDATECREATED, ZTITLE, ZBODY)
                SELECT n, 1, 1, n, 700000000 + n * 60, 'Note ' || n, 'the body of note ' || n || ', with some words in it' FROM counter
                """, arguments: [notes])
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Note'", arguments: [notes])
        }
        try store.close()
        return url
    }
}
