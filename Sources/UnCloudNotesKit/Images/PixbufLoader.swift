import CGdkPixbuf
import Foundation

/// Decoded pixels: 8-bit RGBA rows, `rowStride` bytes apart.
public struct DecodedImage: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes from one row's start to the next (at least 4 x width).
    public var rowStride: Int
    /// The rows, top first, 4 bytes (RGBA) per pixel.
    public var pixels: Data
}


/// gdk-pixbuf's incremental loader: reads an image's size from its header alone, and decodes,
/// optionally scaled while decoding (JPEG decodes straight to the smaller size).
enum PixbufLoader {
    /// Width and height, and the format name ("png", "jpeg", …), from as little of the data as
    /// it takes to read the header.
    static func header(of data: Data) throws -> (width: Int, height: Int, format: String?) {
        let session = LoaderSession(sizing: nil)
        let chunkSize = 4096
        var offset = 0
        while offset < data.count, session.preparedSize == nil {
            let end = min(offset + chunkSize, data.count)
            try session.write(data.subdata(in: offset..<end))
            offset = end
        }
        // The loader sniffs the format from its first few kilobytes: a smaller image only
        // starts decoding, and reports its size, when the loader is closed.
        if session.preparedSize == nil { session.closeIgnoringErrors() }
        guard let size = session.preparedSize else {
            throw ImageError.broken(.noSizeFound(byteCount: data.count))
        }
        return (size.width, size.height, session.formatName)
    }

    /// Checks that the data is a complete image. gdk-pixbuf decodes a truncated PNG or JPEG
    /// without complaint (filling in what is missing), so the end markers of those formats are
    /// checked too.
    static func verify(_ data: Data, format: ImageHeader.Format) throws {
        _ = try decode(data, fitting: (64, 64))
        switch format {
        case .png:
            let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            guard data.count >= 12, Array(data.suffix(8)) == iend else {
                throw ImageError.broken(.noPNGEnd)
            }
        case .jpeg:
            let trimmed = data.reversed().drop { $0 == 0 || $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }
            guard Array(trimmed.prefix(2)) == [0xD9, 0xFF] else {
                throw ImageError.broken(.noJPEGEnd)
            }
        case .gif, .webp:
            break
        }
    }

    /// Decodes the whole image, scaled down (never up) to fit the given box when one is given.
    static func decode(_ data: Data, fitting box: (width: Int, height: Int)?) throws -> DecodedImage {
        try decode(data, sizing: box.map(LoaderSession.Sizing.fit))
    }

    /// Decodes the image no smaller than the size it takes to fit the box, made smaller only as
    /// far as the decoder does it for free (JPEG's DCT scaling by 1/2, 1/4 or 1/8), never
    /// resampled: for a caller that scales the pixels itself (libchafa does, better than
    /// gdk-pixbuf's bilinear filter, and that pass over the pixels is saved).
    static func decode(_ data: Data, covering box: (width: Int, height: Int)) throws -> DecodedImage {
        try decode(data, sizing: .cover(box))
    }

    private static func decode(_ data: Data, sizing: LoaderSession.Sizing?) throws -> DecodedImage {
        let session = LoaderSession(sizing: sizing)
        try session.write(data)
        try session.close()
        guard let pixbuf = gdk_pixbuf_loader_get_pixbuf(session.loader) else {
            throw ImageError.broken(.decodedToNothing)
        }
        guard let rgba = gdk_pixbuf_add_alpha(pixbuf, 0, 0, 0, 0) else { throw ImageError.rendering(.cannotConvertToRGBA) }
        defer { g_object_unref(UnsafeMutableRawPointer(rgba)) }
        let width = Int(gdk_pixbuf_get_width(rgba)), height = Int(gdk_pixbuf_get_height(rgba))
        let stride = Int(gdk_pixbuf_get_rowstride(rgba))
        var length: guint = 0
        guard let bytes = gdk_pixbuf_get_pixels_with_length(rgba, &length) else { throw ImageError.rendering(.noPixels) }
        return DecodedImage(width: width, height: height, rowStride: stride, pixels: Data(bytes: bytes, count: Int(length)))
    }
}

/// One `GdkPixbufLoader`, with the `size-prepared` signal wired to record the size and to ask for
/// a scaled decode.
private final class LoaderSession {
    /// How the decoded pixels are sized, relative to a box.
    enum Sizing {
        /// Scaled down (never up) to fit the box.
        case fit((width: Int, height: Int))
        /// Scaled down only by DCT scaling, never below the size that fits the box.
        case cover((width: Int, height: Int))
    }

    let loader: UnsafeMutablePointer<GdkPixbufLoader>
    let sizing: Sizing?
    var preparedSize: (width: Int, height: Int)?
    private var closed = false

    init(sizing: Sizing?) {
        self.loader = gdk_pixbuf_loader_new()
        self.sizing = sizing
        let callback: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, gpointer?) -> Void = {
            loader, width, height, userData in
            guard let userData, let loader else { return }
            let session = Unmanaged<LoaderSession>.fromOpaque(userData).takeUnretainedValue()
            session.preparedSize = (Int(width), Int(height))
            if let size = session.decodedSize(width: Int(width), height: Int(height)) {
                gdk_pixbuf_loader_set_size(loader, Int32(size.width), Int32(size.height))
            }
        }
        g_signal_connect_data(UnsafeMutableRawPointer(loader), "size-prepared",
                              unsafeBitCast(callback, to: GCallback.self),
                              Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(rawValue: 0))
    }

    /// The size to ask of the loader for an image of `width` x `height`; nil for its own size.
    private func decodedSize(width: Int, height: Int) -> (width: Int, height: Int)? {
        guard let sizing, width > 0, height > 0 else { return nil }
        switch sizing {
        case .fit(let box):
            guard width > box.width || height > box.height else { return nil }
            let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
            return (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
        case .cover(let box):
            // libjpeg decodes at 1/d with the size rounded up; the JPEG loader picks that scale
            // when asked for exactly that size, and then has nothing left to resample.
            guard formatName == "jpeg" else { return nil }
            let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
            guard let denominator = [8, 4, 2].first(where: { Double($0) * scale <= 1 }) else { return nil }
            return ((width + denominator - 1) / denominator, (height + denominator - 1) / denominator)
        }
    }

    var formatName: String? {
        guard let format = gdk_pixbuf_loader_get_format(loader), let name = gdk_pixbuf_format_get_name(format) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }

    func write(_ data: Data) throws {
        var error: UnsafeMutablePointer<GError>?
        let ok = data.withUnsafeBytes { buffer in
            gdk_pixbuf_loader_write(loader, buffer.bindMemory(to: guchar.self).baseAddress, gsize(buffer.count), &error)
        }
        if ok == 0 { throw Self.imageError(error, fallback: .unreadableByDecoder) }
    }

    func close() throws {
        closed = true
        var error: UnsafeMutablePointer<GError>?
        if gdk_pixbuf_loader_close(loader, &error) == 0 {
            throw Self.imageError(error, fallback: .incomplete)
        }
    }

    /// Closes without reporting a truncated image: fine when only the header was wanted.
    func closeIgnoringErrors() {
        guard !closed else { return }
        closed = true
        var error: UnsafeMutablePointer<GError>?
        _ = gdk_pixbuf_loader_close(loader, &error)
        if let error { g_error_free(error) }
    }

    /// A loader must be closed before it is freed.
    deinit {
        closeIgnoringErrors()
        g_object_unref(loader)
    }

    private static func imageError(_ error: UnsafeMutablePointer<GError>?, fallback: ImageError.BrokenReason) -> ImageError {
        guard let error else { return .broken(fallback) }
        defer { g_error_free(error) }
        return .broken(error.pointee.message.map { .decoder(message: String(cString: $0)) } ?? fallback)
    }
}
