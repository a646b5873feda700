import Foundation
import UnCloudNotesKit

extension NotesApp {
    /// Whether a search or a preview is under way: the runner then wakes often to take it.
    public var isWaitingForBackgroundWork: Bool { state.listScreen.searchPending || backgroundPreviews.isBusy }

    /// Shows what the latest search found and the previews made since the last call (answers
    /// of superseded searches never get here). Returns whether the screen changed, to redraw.
    @discardableResult
    public func receiveBackgroundWork() -> Bool {
        let previewsArrived = receivePreviews()
        let synced = receiveSync()
        return receiveSearchAnswer() || previewsArrived || synced
    }

    /// A finished sync: the status line says when and what moved, conflicts or an error show as
    /// the message. The notes it wrote arrive as any other process's change.
    private func receiveSync() -> Bool {
        let status = backgroundSync.takeStatus()
        if let status { state.syncLine.status = status }
        guard let outcome = backgroundSync.takeFinished() else { return status != nil }
        state.syncLine.running = false
        switch outcome {
        case .success(let report):
            state.syncLine.failed = false
            state.message = report.lines.dropLast().joined(separator: "; ")
        case .failure(let failure):
            state.syncLine.failed = true
            state.message = "sync failed: \(failure.message)"
        }
        return true
    }

    private func receivePreviews() -> Bool {
        let finished = backgroundPreviews.takeFinished()
        for preview in finished { state.previews.store(preview.preview, key: preview.key) }
        return !finished.isEmpty
    }

    private func receiveSearchAnswer() -> Bool {
        guard let latest = backgroundSearch.takeDeliveries().last else { return false }
        if let failure = latest.failure {
            // The rest of a list that failed to arrive leaves its first page on screen.
            if state.listScreen.awaitingRest {
                state.message = "only the list's first page is shown: \(failure)"
                state.listScreen.restFailed()
                return true
            }
            state.message = failure
        }
        state.listScreen.showMatches(latest.noteIDs, isComplete: latest.isComplete)
        return true
    }
}
