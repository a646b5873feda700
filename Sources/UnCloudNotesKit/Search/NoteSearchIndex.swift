import Foundation
import ManagedStore

/// The app's use of the engine's text index: the notes' titles and bodies, folded as
/// `CONTAINS[cd]` folds them, newest first, in the side file `<store>-search`.
public enum NoteSearchIndex {
    static let configuration = TextIndexConfiguration(entityName: NoteBook.noteEntity, attributes: ["title", "body"],
                                                      orderAttribute: "dateCreated", fold: SearchFolding.caseAndAccentFolded)

    /// Where the index of this store is kept.
    public static func url(beside store: PersistentStore) -> URL {
        TextSearchIndex.url(beside: store)
    }

    /// Opens (creating when missing) the index beside the book's store.
    static func open(beside context: ManagedObjectContext) throws -> TextSearchIndex {
        try TextSearchIndex(beside: context, configuration: configuration)
    }
}

extension NoteBook {
    /// Whether a search would first have to build the index beside the store (there is none
    /// yet): about 5 s for 100,000 notes (release build), which a command says before it starts.
    public var searchIndexIsMissing: Bool {
        !FileManager.default.fileExists(atPath: NoteSearchIndex.url(beside: context.store).path)
    }

    /// How many notes this book's searches had to fold into the index because it was missing,
    /// foreign or stale (zero: every search answered from the index as it was); nil when the book
    /// searches without one. For telling, as the benchmark does, whether a search waited for a build.
    public var notesFoldedBySearches: Int? { searchIndex?.rebuiltEntryCount }
}
