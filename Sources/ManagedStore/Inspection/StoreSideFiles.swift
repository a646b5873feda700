import Foundation

/// The files kept beside a store, each named for what it is, for `store info`: SQLite's
/// companions, the migration lock, the search index, the backup each upgrade made, and what an
/// interrupted migration left behind (the next migration removes those).
struct StoreSideFiles {
    struct Entry {
        let url: URL
        let role: String
    }

    let migrator: StoreMigrator

    /// Every such file that exists now, the store's own first.
    var existing: [Entry] {
        var seen = Set<String>()
        return candidates.filter { entry in
            // A file that cannot be looked at is not listed (it went away, or is not ours to show).
            seen.insert(entry.url.path).inserted && (try? FileManager.default.attributesOfItem(atPath: entry.url.path)[.type] as? FileAttributeType) == .typeRegular
        }
    }

    private var candidates: [Entry] {
        let store = migrator.storeURL
        let real = migrator.realStoreURL
        let search = TextSearchIndex.url(besideStoreAt: real)
        var entries = [Entry(url: store, role: "store")]
        entries += Self.companions(of: store, role: "SQLite")
        entries.append(Entry(url: URL(fileURLWithPath: real.path + ".lock"), role: "migration lock"))
        entries.append(Entry(url: search, role: "search index"))
        entries += Self.companions(of: search, role: "search index")
        for version in migrator.model.versions {
            let backup = migrator.backupURL(for: version)
            entries.append(Entry(url: backup, role: "backup of the store at \(migrator.label(of: version))"))
            entries += MigrationFiles(store: real, backup: backup).created.map {
                Entry(url: $0, role: "left by an interrupted migration")
            }
        }
        return entries
    }

    /// The `-wal`, `-shm` and `-journal` files SQLite keeps beside a database while it is used.
    private static func companions(of database: URL, role: String) -> [Entry] {
        [("-wal", "write-ahead log"), ("-shm", "shared memory"), ("-journal", "rollback journal")].map {
            Entry(url: URL(fileURLWithPath: database.path + $0.0), role: "\(role) \($0.1)")
        }
    }
}
