import CGdkPixbuf
import Foundation

/// Which images UnCloudNotes accepts, and how big: the formats of `ImageHeader.Format` that
/// gdk-pixbuf can decode on this system (WebP only with its loader installed), up to
/// `maxPixelCount` pixels, so one attachment can never cost gigabytes to decode.
public enum ImageFormats {
    /// 50 megapixels: a 12-megapixel phone photo passes, a 20000 x 20000 bomb does not. At 4
    /// bytes a pixel, the largest accepted image decodes into at most 200 MB.
    public static let maxPixelCount = 50_000_000

    /// The accepted formats gdk-pixbuf has a loader for, in `Format` order.
    public static let supported: [ImageHeader.Format] = {
        var names: Set<String> = []
        let list = gdk_pixbuf_get_formats()
        var node = list
        while let current = node {
            if let format = current.pointee.data.map(OpaquePointer.init),
               let name = gdk_pixbuf_format_get_name(format) {
                names.insert(String(cString: name))
                g_free(name)
            }
            node = current.pointee.next
        }
        g_slist_free(list)
        return ImageHeader.Format.allCases.filter { names.contains($0.rawValue) }
    }()

    /// "PNG, JPEG, GIF, WebP", for help texts and errors.
    public static var supportedList: String {
        supported.map(\.displayName).joined(separator: ", ")
    }

    /// The header of data that is an accepted image within the limit, or why not.
    static func check(_ data: Data) throws -> ImageHeader {
        let header: ImageHeader
        do {
            header = try ImageHeader(data)
        } catch let error as ImageError {
            throw ImageError.listingSupported(error, supported: supportedList)
        }
        guard supported.contains(header.format) else {
            throw ImageError.listingSupported(.noLoader(format: header.format.displayName), supported: supportedList)
        }
        guard header.pixelCount <= maxPixelCount else {
            throw ImageError.tooLarge(width: header.width, height: header.height, limitMegapixels: maxPixelCount / 1_000_000)
        }
        return header
    }
}
