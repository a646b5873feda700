import Foundation
import UnCloudNotesKit

extension NotesApp {
    /// Whether a search or a preview is under way: the terminal loop then wakes often to take it.
    public var isWaitingForBackgroundWork: Bool { state.listScreen.searchPending || backgroundPreviews.isBusy }

    /// What the background finished since the last call, as events for `receive`, the one way
    /// anything reaches the state: the previews made, the sync's news, the search index built,
    /// and the latest search's answer (answers of superseded searches never get here).
    public func backgroundEvents() -> [NotesEvent] {
        var events: [NotesEvent] = []
        let previews = backgroundPreviews.takeFinished()
        if !previews.isEmpty { events.append(.previewsMade(previews)) }
        if let status = backgroundSync.takeStatus() { events.append(.syncStatusRead(status)) }
        if let outcome = backgroundSync.takeFinished() { events.append(.syncFinished(outcome)) }
        if !state.searchIndexReady, backgroundSearch.isIndexReady { events.append(.searchIndexBuilt) }
        if let latest = backgroundSearch.takeDeliveries().last {
            events.append(.searchAnswered(latest.noteIDs, isComplete: latest.isComplete, failure: latest.failure))
        }
        return events
    }

    /// Takes what the background finished through `receive`: the effects its events ask for,
    /// nil when nothing arrived (the screen is then as it was).
    @discardableResult
    public func receiveBackgroundWork() -> [NotesEffect]? {
        let events = backgroundEvents()
        return events.isEmpty ? nil : events.flatMap { receive($0) }
    }
}
