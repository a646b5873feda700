import Foundation
import UnCloudNotesKit

extension NotesApp {
    /// Whether a search or a preview is under way: the runner then wakes often to take it.
    public var isWaitingForBackgroundWork: Bool { searchPending || backgroundPreviews.isBusy }

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
        if let status { syncLine.status = status }
        guard let outcome = backgroundSync.takeFinished() else { return status != nil }
        syncLine.running = false
        switch outcome {
        case .success(let report):
            syncLine.failed = false
            message = report.lines.dropLast().joined(separator: "; ")
        case .failure(let failure):
            syncLine.failed = true
            message = "sync failed: \(failure.message)"
        }
        return true
    }

    private func receivePreviews() -> Bool {
        let finished = backgroundPreviews.takeFinished()
        for preview in finished { previews.store(preview.preview, key: preview.key) }
        return !finished.isEmpty
    }

    private func receiveSearchAnswer() -> Bool {
        guard let latest = backgroundSearch.takeDeliveries().last else { return false }
        if let failure = latest.failure { message = failure }
        list.show(latest.noteIDs)
        // The full answer starts with the first page, so a selection made meanwhile stays put.
        selected = min(selected, max(0, list.count - 1))
        if latest.isComplete { searchPending = false }
        return true
    }
}
