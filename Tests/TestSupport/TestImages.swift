import CGdkPixbuf
import Foundation

/// Real PNG and JPEG bytes made with gdk-pixbuf, for tests that store and decode images.
public enum TestImages {
    /// A gradient image of the given size, encoded as "png" or "jpeg".
    public static func encoded(width: Int, height: Int, format: String = "png") -> Data {
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        for y in 0..<height {
            for x in 0..<width {
                let offset = y * stride + x * 3
                pixels[offset] = UInt8(x * 255 / max(width - 1, 1))
                pixels[offset + 1] = UInt8(y * 255 / max(height - 1, 1))
                pixels[offset + 2] = 128
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let saved = gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, format, nil, nil, &error)
        precondition(saved != 0, "gdk-pixbuf could not encode a test image")
        defer { g_free(buffer) }
        return Data(bytes: buffer!, count: Int(size))
    }
}
