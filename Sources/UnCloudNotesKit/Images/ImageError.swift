/// Why image bytes or an image file could not be used. Callers react to the case (a too-large
/// photo can be scaled down and tried again; a file that is not an image is named for what it
/// is); each case's description is the one line the user reads.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are empty or another kind of file (`what` says which, e.g. "a PDF document").
    case notAnImage(what: String)
    /// An image whose header or data is truncated or broken, as the reader or gdk-pixbuf found.
    case broken(BrokenReason)
    /// An image format gdk-pixbuf on this machine has no loader for.
    case noLoader(format: String)
    /// More pixels than the app decodes (read from the header, before decoding).
    case tooLarge(width: Int, height: Int, limitMegapixels: Int)
    /// Decoded pixels could not be converted or drawn (gdk-pixbuf, libchafa).
    case rendering(RenderingFailure)
    /// The file could not be read, or is not a file.
    case unreadableFile(path: String, reason: FileReason)
    /// A problem with the image in this file.
    indirect case inFile(path: String, ImageError)
    /// Not an image value where the model's transformer expects one.
    case notAnImageValue(typeName: String)
    /// The problem, with the formats this machine accepts, for errors about what a file is.
    indirect case listingSupported(ImageError, supported: String)

    /// One line saying what the bytes are and what is accepted.
    public var description: String {
        switch self {
        case .notAnImage(let what): "it is \(what), not an image"
        case .broken(let reason): reason.description
        case .noLoader(let format):
            "it is a \(format) image, but gdk-pixbuf has no loader for \(format) on this system (install its loader, e.g. webp-pixbuf-loader)"
        case .tooLarge(let width, let height, let limit):
            "the image is \(width)x\(height) pixels, more than the limit of \(limit) megapixels; scale it down first"
        case .rendering(let failure): failure.description
        case .unreadableFile(let path, let reason): "\(path): \(reason)"
        case .inFile(let path, let error): "\(path): \(error)"
        case .notAnImageValue(let typeName): "ImageTransformer stores NoteImage values, not \(typeName)"
        case .listingSupported(let error, let supported): "\(error); supported: \(supported)"
        }
    }
}
