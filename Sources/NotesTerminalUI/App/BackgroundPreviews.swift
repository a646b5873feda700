import Synchronization
import UnCloudNotesKit

/// Renders image previews off the key loop: decoding a camera photo takes longer than a
/// keystroke may wait. Finished previews wait here until the key loop takes them into its
/// `PreviewCache`; previews asked for before the images changed (`cancelAll`) are dropped.
final class BackgroundPreviews: Sendable {
    typealias Finished = MadePreview

    /// What the key loop and the jobs share.
    private struct Shared {
        var generation = 0
        var finished: [Finished] = []
        var inFlight = 0
        /// The last kitty image id given out: each picture has its own, to be deleted by.
        var lastPictureID: UInt32 = 0
    }

    private let executor: any BackgroundExecutor
    private let shared = Mutex(Shared())

    init(executor: any BackgroundExecutor) {
        self.executor = executor
    }

    /// Whether previews are being made: the key loop then wakes often to show them.
    var isBusy: Bool { shared.withLock { $0.inFlight > 0 || !$0.finished.isEmpty } }

    /// Starts making the preview of `image` for `key`: a picture at the exact pixel size of the
    /// key's cells when the key's graphics draw pixels, else symbols in `colors`.
    func request(key: PreviewKey, image: NoteImage, colors: ColorSupport) {
        let (asked, id) = shared.withLock { shared in
            shared.inFlight += 1
            shared.lastPictureID = shared.lastPictureID == UInt32.max ? 1 : shared.lastPictureID + 1
            return (shared.generation, shared.lastPictureID)
        }
        executor.run { [self] in
            let preview = Self.render(image, for: key, colors: colors, pictureID: id)
            shared.withLock { shared in
                shared.inFlight -= 1
                if asked == shared.generation { shared.finished.append(Finished(key: key, preview: preview)) }
            }
        }
    }

    /// An image that cannot be previewed shows as "(this image cannot be shown)" (no cells).
    static func render(_ image: NoteImage, for key: PreviewKey, colors: ColorSupport, pictureID: UInt32) -> RenderedPreview {
        switch key.graphics.kind {
        case .pixels(let kind):
            // An image that cannot be encoded is drawn as symbols instead (below), never an error on screen.
            let picture = try? PixelEncoder.encode(image, columns: key.columns, rows: key.rows, cell: key.graphics.cellPixels, as: kind, id: pictureID)
            return picture.map(RenderedPreview.picture) ?? .unavailable
        case .symbols, .none:
            // A picture that cannot be drawn as symbols shows as no preview: the detail says why.
            return .cells((try? ImagePreview.cells(for: image, columns: key.columns, rows: key.rows, colors: colors)) ?? [])
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
