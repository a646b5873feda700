extension ImageError {
    /// Why image bytes are truncated or broken, as a case callers and tests match rather than
    /// wording to search; `description` makes the words a user reads.
    public enum BrokenReason: Equatable, Sendable, CustomStringConvertible {
        /// The header ends, or is damaged, before the size (PNG's IHDR, GIF's screen size, JPEG's
        /// frame header, WebP's first chunk): the file was cut short or is not what it claims.
        case noSize(ImageHeader.Format)
        /// The header claims a width or height of zero, which no image has.
        case impossibleSize(ImageHeader.Format, width: Int, height: Int)
        /// gdk-pixbuf found no size in the whole of the bytes.
        case noSizeFound(byteCount: Int)
        /// A PNG without its IEND chunk: gdk-pixbuf would decode the cut file without complaint.
        case noPNGEnd
        /// A JPEG without its end-of-image marker: gdk-pixbuf would fill in what is missing.
        case noJPEGEnd
        /// gdk-pixbuf decoded the bytes to no pixbuf at all.
        case decodedToNothing
        /// gdk-pixbuf refused the bytes, with its own message (GError's, free text).
        case decoder(message: String)
        /// gdk-pixbuf refused the bytes while reading them, without a message.
        case unreadableByDecoder
        /// gdk-pixbuf found the data incomplete when it was closed, without a message.
        case incomplete

        /// The reason in the words a user reads (the only place they are made).
        public var description: String {
            switch self {
            case .noSize(.png): "the PNG image is truncated or broken (no IHDR header)"
            case .noSize(.jpeg): "the JPEG image is truncated or broken (no frame header with its size)"
            case .noSize(.gif): "the GIF image is truncated (no screen size)"
            case .noSize(.webp): "the WebP image is truncated or broken (no size in its first chunk)"
            case .impossibleSize(let format, let width, let height):
                "the \(format.displayName) image claims a size of \(width)x\(height) pixels"
            case .noSizeFound(let count): "not an image gdk-pixbuf can read (no size found in \(count) bytes)"
            case .noPNGEnd: "the PNG image is truncated (no IEND chunk at its end)"
            case .noJPEGEnd: "the JPEG image is truncated (no end-of-image marker)"
            case .decodedToNothing: "the image decoded to nothing"
            case .decoder(let message): message
            case .unreadableByDecoder: "not an image gdk-pixbuf can read"
            case .incomplete: "the image data is incomplete or broken"
            }
        }
    }
}
