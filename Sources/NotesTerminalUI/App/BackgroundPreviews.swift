import Synchronization
import UnCloudNotesKit

/// Renders image previews off the key loop: decoding a camera photo takes longer than a
/// keystroke may wait. Finished previews wait here until the key loop takes them into its
/// `PreviewCache`; previews asked for before the images changed (`cancelAll`) are dropped.
final class BackgroundPreviews: Sendable {
    /// A preview made, for its cache key.
    struct Finished: Sendable {
        let key: String
        let cells: [[Cell]]
    }

    /// What the key loop and the jobs share.
    private struct Shared {
        var generation = 0
        var finished: [Finished] = []
        var inFlight = 0
    }

    private let executor: any BackgroundExecutor
    private let shared = Mutex(Shared())

    init(executor: any BackgroundExecutor) {
        self.executor = executor
    }

    /// Whether previews are being made: the key loop then wakes often to show them.
    var isBusy: Bool { shared.withLock { $0.inFlight > 0 || !$0.finished.isEmpty } }

    /// Starts making the preview of `image` at this size.
    func request(key: String, image: NoteImage, columns: Int, rows: Int, colors: ColorSupport) {
        let asked = shared.withLock { shared in
            shared.inFlight += 1
            return shared.generation
        }
        executor.run { [self] in
            // An image that cannot be previewed shows as "(this image cannot be shown)" (no cells).
            let cells = (try? ImagePreview.cells(for: image, columns: columns, rows: rows, colors: colors)) ?? []
            shared.withLock { shared in
                shared.inFlight -= 1
                if asked == shared.generation { shared.finished.append(Finished(key: key, cells: cells)) }
            }
        }
    }

    /// Forgets previews under way and not yet taken: the images they show may have changed.
    func cancelAll() {
        shared.withLock { shared in
            shared.generation += 1
            shared.finished = []
        }
    }

    /// Takes the previews finished since the last call.
    func takeFinished() -> [Finished] {
        shared.withLock { shared in
            defer { shared.finished = [] }
            return shared.finished
        }
    }
}
