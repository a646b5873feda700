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

    /// A decompression bomb: a valid PNG header claiming `width` x `height` RGB pixels, with
    /// a tiny zlib stream as its only IDAT, a few dozen bytes in all.
    public static func pngBomb(width: UInt32, height: UInt32) -> Data {
        var header = Data()
        header.append(bigEndian: width)
        header.append(bigEndian: height)
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits, RGB, deflate, no filter, no interlace
        let emptyZlibStream: [UInt8] = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png.append(chunk: "IHDR", header)
        png.append(chunk: "IDAT", Data(emptyZlibStream))
        png.append(chunk: "IEND", Data())
        return png
    }

    /// The smallest GIF: one transparent pixel, with the given logical screen size.
    public static func gif(width: UInt16 = 1, height: UInt16 = 1) -> Data {
        var gif = Data("GIF89a".utf8)
        gif.append(contentsOf: [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)])
        gif.append(contentsOf: [0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF,  // 2-colour table
                                0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00,  // transparency
                                0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,  // one 1x1 frame
                                0x02, 0x02, 0x44, 0x01, 0x00, 0x3B])
        return gif
    }
}

private extension Data {
    mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// A PNG chunk: length, type, data and the CRC-32 of type and data.
    mutating func append(chunk type: String, _ data: Data) {
        append(bigEndian: UInt32(data.count))
        let body = Data(type.utf8) + data
        append(body)
        append(bigEndian: Self.crc32(body))
    }

    static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
