extension ImageError {
    /// Why decoded pixels could not be converted or drawn, as a case callers and tests match
    /// rather than wording to search; `description` makes the words a user reads.
    public enum RenderingFailure: Equatable, Sendable, CustomStringConvertible {
        /// gdk-pixbuf could not add the alpha channel every consumer expects (RGBA).
        case cannotConvertToRGBA
        /// gdk-pixbuf gave a pixbuf without its pixel bytes.
        case noPixels
        /// The box to draw in has no rows or columns, or its cells no size.
        case noRoom
        /// libchafa could not make a canvas to draw on.
        case noCanvas
        /// libchafa drew nothing.
        case nothingPrinted
        /// libchafa knows no sequences for the terminal.
        case noTerminalSequences
        /// libchafa would not give the kitty graphics sequence.
        case kittySequenceRefused

        /// The failure in the words a user reads (the only place they are made).
        public var description: String {
            switch self {
            case .cannotConvertToRGBA: "cannot convert the image to RGBA"
            case .noPixels: "the image has no pixels"
            case .noRoom: "no room for the picture"
            case .noCanvas: "libchafa could not make a canvas"
            case .nothingPrinted: "libchafa printed nothing"
            case .noTerminalSequences: "libchafa has no terminal sequences"
            case .kittySequenceRefused: "libchafa refused the kitty sequence"
            }
        }
    }
}
