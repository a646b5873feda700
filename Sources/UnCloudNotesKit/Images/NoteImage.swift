import Foundation
import ManagedStore

/// An image attached to a note: its encoded bytes (PNG, JPEG or any format gdk-pixbuf reads),
/// kept exactly as given and decoded only when pixels are needed.
public struct NoteImage: Equatable, Sendable {
    public let data: Data

    /// Wraps bytes read from a store; they are decoded on demand.
    public init(storedData: Data) {
        self.data = storedData
    }

    /// Checks that the bytes decode as an image before accepting them.
    public init(validating data: Data) throws {
        guard !data.isEmpty else { throw ImageError("the file is empty") }
        try PixbufLoader.verify(data)
        self.data = data
    }

    /// Reads and checks an image file.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImageError("\(url.path): cannot read the file")
        }
        do {
            try self.init(validating: data)
        } catch let error as ImageError {
            throw ImageError("\(url.path): \(error.reason)")
        }
    }

    /// Width and height in pixels, from the image header only.
    public func pixelSize() throws -> (width: Int, height: Int) {
        let header = try PixbufLoader.header(of: data)
        return (header.width, header.height)
    }

    /// The format gdk-pixbuf recognises ("png", "jpeg", …).
    public var formatName: String? {
        try? PixbufLoader.header(of: data).format
    }

    /// The pixels, scaled down while decoding to fit the box when one is given.
    public func decoded(fittingWidth width: Int? = nil, height: Int? = nil) throws -> DecodedImage {
        let box = width.map { ($0, height ?? Int.max) } ?? height.map { (Int.max, $0) }
        return try PixbufLoader.decode(data, fitting: box)
    }
}

/// The value transformer named `ImageTransformer` in the model: a `NoteImage` is stored as its
/// encoded bytes, as the chapter's transformer stores a UIImage's PNG data.
public struct ImageTransformer: AttributeValueTransformer {
    public static let name = "ImageTransformer"

    public init() {}

    public func encode(_ value: Any) throws -> Data {
        guard let image = value as? NoteImage else {
            throw ImageError("ImageTransformer stores NoteImage values, not \(type(of: value))")
        }
        return image.data
    }

    public func decode(_ data: Data) throws -> Any {
        NoteImage(storedData: data)
    }
}
