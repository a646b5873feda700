import Foundation
import ManagedStore

/// An image attached to a note: its encoded bytes (PNG, JPEG or any format gdk-pixbuf reads),
/// kept exactly as given and decoded only when pixels are needed.
public struct NoteImage: Equatable, Sendable {
    /// The encoded bytes, exactly as given: what the store keeps.
    public let data: Data

    /// Wraps bytes read from a store; they are decoded on demand.
    public init(storedData: Data) {
        self.data = storedData
    }

    /// Accepts the bytes only when they are an image of a supported format, within the pixel
    /// limit (both read from the header, before any decoding) and decodable to the end.
    public init(validating data: Data) throws {
        guard !data.isEmpty else { throw ImageError.notAnImage(what: "an empty file") }
        let header = try ImageFormats.check(data)
        try PixbufLoader.verify(data, format: header.format)
        self.data = data
    }

    /// Reads and checks an image file.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try UserFile.contents(of: url)
        } catch let error as UserFileError {
            throw ImageError.unreadableFile(path: url.path, reason: .cannotRead(error))
        }
        do {
            try self.init(validating: data)
        } catch let error as ImageError {
            throw ImageError.inFile(path: url.path, error)
        }
    }

    /// Width and height in pixels, from the image header only (never decoded): parsed in
    /// Swift for the accepted formats, asked of gdk-pixbuf's loader for others a store may hold.
    public func pixelSize() throws -> (width: Int, height: Int) {
        // A format the Swift reader does not know is gdk-pixbuf's to answer, with its error.
        if let header = try? ImageHeader(data) { return (header.width, header.height) }
        let header = try PixbufLoader.header(of: data)
        return (header.width, header.height)
    }

    /// The format's short name ("png", "jpeg", …), from the header; nil when neither reader
    /// knows it (shown as an unknown format, never an error).
    public var formatName: String? {
        (try? ImageHeader(data))?.format.rawValue ?? (try? PixbufLoader.header(of: data))?.format
    }

    /// The pixels, scaled down while decoding to fit the box when one is given.
    public func decoded(fittingWidth width: Int? = nil, height: Int? = nil) throws -> DecodedImage {
        let box = width.map { ($0, height ?? Int.max) } ?? height.map { (Int.max, $0) }
        return try PixbufLoader.decode(data, fitting: box)
    }

    /// The pixels, at least as large as the image fitted to the box, scaled down only as far as
    /// decoding does it for free (a JPEG's DCT scaling): for a caller that resamples them itself.
    public func decoded(coveringWidth width: Int, height: Int) throws -> DecodedImage {
        try PixbufLoader.decode(data, covering: (width, height))
    }
}

/// The value transformer named `ImageTransformer` in the model: a `NoteImage` is stored as its
/// encoded bytes, as the chapter's transformer stores a UIImage's PNG data.
public struct ImageTransformer: AttributeValueTransformer {
    /// The name the model gives the transformer (`valueTransformerName`).
    public static let name = "ImageTransformer"

    /// The transformer; stateless, registered once under `name`.
    public init() {}

    /// A `NoteImage`'s bytes; any other value is refused rather than stored wrongly.
    public func encode(_ value: Any) throws -> Data {
        guard let image = value as? NoteImage else {
            throw ImageError.notAnImageValue(typeName: "\(type(of: value))")
        }
        return image.data
    }

    /// A `NoteImage` of the stored bytes, decoded only when its pixels are needed.
    public func decode(_ data: Data) throws -> Any {
        NoteImage(storedData: data)
    }
}
