import Foundation
import ManagedStore
import Testing

/// The words of `MigrationError`'s file and mapping problems, made from cases in one place: each
/// must read exactly as the free text it replaced (issue #34), since users and scripts read it.
@Suite("Migration error text")
struct MigrationErrorTextTests {
    private static let denied = String(cString: strerror(EACCES))

    @Test("a store another program kept locked past the wait says so and to try again; other SQLite errors read as before")
    func busyStore() {
        let busy = FailureCause.sqlite(code: 5, extendedCode: 5, message: "database is locked", statement: "BEGIN IMMEDIATE TRANSACTION")
        #expect(busy.description == "another program kept the store locked for writing past the wait; try again when it is done (SQLite error 5: database is locked)")
        #expect(FailureCause.sqlite(code: 19, extendedCode: 2067, message: "UNIQUE constraint failed", statement: nil).description
            == "SQLite error 19: UNIQUE constraint failed")
    }

    @Test("a file problem reads as the path and the words it always had", arguments: [
        (MigrationError.FileProblem.destinationExists, "a file is already there; the migration writes a new store"),
        (.inTheWay, "a file is in the way of the migration's working files; move it away and run again (the store was not changed)"),
        (.folderAtBackup, "a folder is where the backup goes; move it away and run again (the store was not changed)"),
        (.readOnlyStore, "the store is read-only, so it cannot be migrated; it can still be listed and exported. "
            + "Make it writable (chmod u+w) to upgrade it"),
        (.readOnlyFolder(folder: "/d"), "the store's folder /d is read-only, so the store cannot be migrated; it can still be "
            + "listed and exported. Make the folder writable to upgrade it"),
        (.cannotReadOwnership(errno: EACCES), "cannot read the file's owner and mode (\(denied))"),
        (.cannotSetPermissions(errno: EACCES), "cannot give the migrated file the store's permissions (\(denied))"),
        (.cannotSetOwner(errno: EACCES), "cannot give the file the store's owner (\(denied))"),
        (.cannotCreateLock(errno: EACCES), "cannot create the lock file (\(denied)): check the folder can be written"),
        (.cannotLock(errno: EACCES), "cannot lock (\(denied))"),
        (.cannotWriteLock(errno: EACCES), "cannot write the lock file (\(denied))"),
        (.cannotSyncLock(errno: EACCES), "cannot sync the lock file (\(denied))"),
        (.cannotFoldWAL(cause: FailureCause.other("disk\n  full")), "cannot fold its -wal into the main file (disk full)"),
    ])
    func fileProblem(problem: MigrationError.FileProblem, text: String) {
        #expect(MigrationError.file(path: "/s/n.sqlite", problem: problem).description == "/s/n.sqlite: " + text)
    }

    @Test("a mapping problem reads as the words it always had", arguments: [
        (MigrationError.MappingProblem.unknownSourceEntity(mapping: "NoteToNote", entity: "Old", model: "M v1"),
         "entity mapping NoteToNote reads entity Old, which M v1 does not have"),
        (.unknownDestinationEntity(mapping: "NoteToNote", entity: "New", model: "M v2"),
         "entity mapping NoteToNote makes entity New, which M v2 does not have"),
        (.noSuchEntityMapping("Gone"), "the mapping model has no entity mapping named Gone"),
        (.unmappedObjects(mappingModel: "Mv4_to_v5", entity: "Attachment", count: 2),
         "Mv4_to_v5 reads no Attachment objects, and the store holds 2: they would be lost; add an entity mapping for Attachment"),
        (.expressionGaveObjects(entity: "Note", key: "title"), "Note.title: the mapping's expression gave objects, not a value"),
        (.expressionGaveNoObjects(entity: "Note", key: "tags"), "Note.tags: the mapping's expression gave no objects"),
        (.noSuchRelationship(entity: "Note", key: "tags"), "Note has no relationship tags"),
        (.argumentGaveObjects(mapping: "NoteToNote", attribute: "title", function: "caption"),
         "NoteToNote.title: an argument of caption gave objects, not a value"),
        (.noAttributeMappings(mapping: "AToB", neededTo: "copy the attachment"),
         "AToB has no attribute mappings: the policy needs them to copy the attachment"),
        (.noValueExpression(mapping: "AToB", attribute: "image"), "AToB.image has no value expression"),
        (.associationNamesNoObject(store: "/s/n.sqlite", entityMapping: 3, entityNumber: 9),
         "/s/n.sqlite: the association of entity mapping 3 names no object (entity 9)"),
        (.associationNamesNoObject(store: "/s/n.sqlite", entityMapping: 3, entityNumber: nil),
         "/s/n.sqlite: the association of entity mapping 3 names no object (entity NULL)"),
        (.inPlaceStepDeclined, "the in-place migration declined a step it had planned"),
    ])
    func mappingProblem(problem: MigrationError.MappingProblem, text: String) {
        #expect(MigrationError.mapping(problem).description == text)
    }
}
