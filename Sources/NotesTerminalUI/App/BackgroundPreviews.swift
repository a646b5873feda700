import Foundation
import UnCloudNotesKit

/// Renders image previews off the key loop: decoding a camera photo takes longer than a
/// keystroke may wait. Finished previews wait here until the key loop takes them into its
/// `PreviewCache`; previews asked for before the images changed (`cancelAll`) are dropped.
final class BackgroundPreviews: @unchecked Sendable {
    /// A preview made, for its cache key.
    struct Finished: Sendable {
        let key: String
        let cells: [[Cell]]
    }

    private let executor: any BackgroundExecutor
    /// Guards `generation`, `finished` and `inFlight`.
    private let lock = NSLock()
    private var generation = 0
    private var finished: [Finished] = []
    private var inFlight = 0

    init(executor: any BackgroundExecutor) {
        self.executor = executor
    }

    /// Whether previews are being made: the key loop then wakes often to show them.
    var isBusy: Bool { lock.withLock { inFlight > 0 || !finished.isEmpty } }

    /// Starts making the preview of `image` at this size.
    func request(key: String, image: NoteImage, columns: Int, rows: Int, colors: ColorSupport) {
        let asked = lock.withLock { () -> Int in
            inFlight += 1
            return generation
        }
        executor.run { [self] in
            // An image that cannot be previewed shows as "(this image cannot be shown)" (no cells).
            let cells = (try? ImagePreview.cells(for: image, columns: columns, rows: rows, colors: colors)) ?? []
            lock.withLock {
                inFlight -= 1
                if asked == generation { finished.append(Finished(key: key, cells: cells)) }
            }
        }
    }

    /// Forgets previews under way and not yet taken: the images they show may have changed.
    func cancelAll() {
        lock.withLock {
            generation += 1
            finished = []
        }
    }

    /// Takes the previews finished since the last call.
    func takeFinished() -> [Finished] {
        lock.withLock {
            defer { finished = [] }
            return finished
        }
    }
}
