/// A picture ready for the terminal: the bytes that draw it at the cursor through one protocol,
/// covering `columns` x `rows` cells at exactly `pixelSize`.
public struct EncodedPicture: Equatable, Sendable {
    /// Unique in the run: kitty's image id, which deleting it names.
    public let id: UInt32
    public let pixelProtocol: PixelProtocol
    public let columns: Int
    public let rows: Int
    public let pixelSize: PixelSize
    /// The sequence as libchafa printed it (kitty: transmits and places it, quietly, the cursor
    /// left where it was).
    public let bytes: [UInt8]

    public static func == (left: EncodedPicture, right: EncodedPicture) -> Bool { left.id == right.id }
}

/// What a preview became: libchafa's symbols as cells, or a picture drawn beside ncurses.
public enum RenderedPreview: Equatable, Sendable {
    case cells([[Cell]])
    case picture(EncodedPicture)
    /// Images are not drawn in this run (`--images none`).
    case hidden

    /// An image that cannot be shown: no cells.
    public static let unavailable = RenderedPreview.cells([])
}

/// A picture placed on a screen, at a rectangle of cells.
public struct PlacedPicture: Equatable, Sendable {
    public let picture: EncodedPicture
    public let area: Rect
}
