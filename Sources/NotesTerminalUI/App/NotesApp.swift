import Foundation
import UnCloudNotesKit

/// The full-screen app as the terminal loop and the tests run it: its state (`NotesState`, whose
/// reducers handle keys and events) and the background queues its work runs on (searches, the
/// search index, image previews, `S`'s sync), whose results come back through
/// `receiveBackgroundWork`. It holds no store and starts nothing itself: every read, write and
/// background job is a `NotesEffect` that `NotesEffectRunner` carries out, its outcome fed back
/// through `receive`. `prepareFrame()` asks for what the next screen shows and has not read yet;
/// `frame()` gathers what was read and `NotesFrame.render()` draws it into a `CellBuffer`, so
/// every screen can be tested as text and every key by the effects it returns.
public final class NotesApp {
    var state: NotesState
    public let colors: ColorSupport
    /// The search typed last runs here, until its full answer is taken.
    let backgroundSearch: BackgroundSearch
    let backgroundPreviews: BackgroundPreviews
    /// `S`: syncs through git off the key loop (docs/sync.md).
    let backgroundSync: BackgroundSync

    /// An app that has read nothing yet: `launch()`'s effects read the first screen.
    /// - Parameters:
    ///   - searchExecutor: runs searches off the key loop (tests pass one they drive by hand).
    ///   - indexExecutor: builds the search index, apart from searches so they need not wait for it.
    ///   - previewExecutor: decodes and renders image previews.
    ///   - syncExecutor: runs `S`'s sync.
    ///   - banner: a line shown above every screen (the walkthrough names its step there).
    ///   - graphics: how previews draw images (symbols unless the terminal draws pixels; see
    ///     `GraphicsDetection`).
    public init(book: NoteBook, storePath: String, versionLabel: String, colors: ColorSupport,
                dates: DateText = .userLocale, banner: String? = nil, graphics: PreviewGraphics = .symbols,
                searchExecutor: any BackgroundExecutor = SerialQueueExecutor(label: "uncloudnotes.search"),
                indexExecutor: any BackgroundExecutor = SerialQueueExecutor(label: "uncloudnotes.search-index"),
                previewExecutor: any BackgroundExecutor = SerialQueueExecutor(label: "uncloudnotes.previews"),
                syncExecutor: any BackgroundExecutor = SerialQueueExecutor(label: "uncloudnotes.sync")) {
        state = NotesState(capabilities: book.capabilities, storePath: storePath, versionLabel: versionLabel, dates: dates)
        backgroundSearch = BackgroundSearch(store: book.address, searchExecutor: searchExecutor, indexExecutor: indexExecutor)
        backgroundPreviews = BackgroundPreviews(executor: previewExecutor)
        backgroundSync = BackgroundSync(storeURL: book.address.url, version: versionLabel, executor: syncExecutor)
        self.colors = colors
        state.storeIsReadOnly = book.isReadOnly
        state.banner = banner
        state.graphics = graphics
    }

    /// What opening the app reads, for the runner: the store's version, the list's first
    /// `launchRows` rows and the count. Once the loop sends `.frameDrawn`, the rest of the
    /// list is asked of the background, with the sync status and, when `syncing` (the config
    /// file's sync at launch), a sync.
    public func launch(syncing: Bool = false) -> [NotesEffect] {
        state.launch(rows: Self.launchRows, syncing: syncing)
    }

    /// How many rows launch reads before the first paint: more than any terminal shows.
    public static let launchRows = 500
    /// Notes read at once below the selection when the list is read again (a pin, an order, a
    /// tag), up to `NotesState.firstPageLimit` in all: the rest comes from the background,
    /// whole, so no key waits for a read of every note.
    public static var firstPageSize: Int { BackgroundSearch.firstPageSize }

    /// What the user typed and has not saved (the editor's title, body and tags), for a draft
    /// file when the app must end at once; nil when nothing would be lost.
    public var unsavedText: String? { state.unsavedText }

    public var storePath: String { state.storePath }
    public var versionLabel: String { state.versionLabel }
    /// The terminal's size, from the last `resize` event.
    var size: TerminalSize { state.size }

    /// Handles one key. Nothing here reads or writes the store: what the key needs is returned.
    public func handle(_ key: Key) -> [NotesEffect] {
        state.handle(key)
    }

    /// Takes in what came of an effect: shows it, and returns what to do next (reading the list
    /// again after a change, a save waiting for the store's check, a key waiting for its note).
    public func receive(_ event: NotesEvent) -> [NotesEffect] {
        state.receive(event)
    }

    /// What the next frame needs and has not got (`NotesState.prepareFrame`): the reads, and the
    /// previews to make.
    public func prepareFrame() -> [NotesEffect] {
        state.prepareFrame()
    }

    /// Called when the user is idle (and by Ctrl-S before saving): the check of the store's
    /// version, whose answer reads again what another process changed.
    public func catchUpWithStore() -> [NotesEffect] {
        state.catchUpWithStore()
    }

    /// What the current screen shows, from what was read: reads nothing and starts nothing.
    public func frame() -> NotesFrame {
        state.frame()
    }

    /// Starts a job on its background queue: the runner's part of `NotesEffect.background`.
    func start(_ job: BackgroundJob) {
        switch job {
        case .search(let query): backgroundSearch.start(query)
        case .readRestOfList(let query): backgroundSearch.start(query, sendingFirstPage: false)
        case .cancelSearches: backgroundSearch.cancelAll()
        case .sync: _ = backgroundSync.start()
        case .refreshSyncStatus: backgroundSync.refreshStatus()
        case .makePreview(let key, let image): backgroundPreviews.request(key: key, image: image, colors: colors)
        case .cancelPreviews: backgroundPreviews.cancelAll()
        }
    }
}
