import CChafa
import UnCloudNotesKit

/// Encodes an image for a graphics protocol with libchafa, at the exact pixel size of the cells
/// it covers: decoded at that size (gdk-pixbuf scales while loading), printed by libchafa's
/// kitty, sixel or iTerm2 encoder.
public enum PixelEncoder {
    /// The picture of `image` fitting `columns` x `rows` cells of `cell` pixels, keeping its aspect
    /// ratio: it covers the whole cells it needs, from the top left, and no more.
    public static func encode(_ image: NoteImage, columns: Int, rows: Int, cell: PixelSize, as kind: PixelProtocol, id: UInt32) throws -> EncodedPicture {
        guard columns > 0, rows > 0, cell.width > 0, cell.height > 0 else { throw ImageError.rendering("no room for the picture") }
        let size = try image.pixelSize()
        var width = Int32(columns), height = Int32(rows)
        chafa_calc_canvas_geometry(Int32(size.width), Int32(size.height), &width, &height,
                                   Float(cell.width) / Float(cell.height), 1, 0)
        width = max(1, min(Int32(columns), width))
        height = max(1, min(Int32(rows), height))
        let target = PixelSize(width: Int(width) * cell.width, height: Int(height) * cell.height)
        let pixels = try image.decoded(fittingWidth: target.width, height: target.height)

        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, width, height)
        chafa_canvas_config_set_cell_geometry(config, Int32(cell.width), Int32(cell.height))
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        chafa_canvas_config_set_pixel_mode(config, pixelMode(kind))
        guard let canvas = chafa_canvas_new(config) else { throw ImageError.rendering("libchafa could not make a canvas") }
        defer { chafa_canvas_unref(canvas) }
        pixels.pixels.withUnsafeBytes { buffer in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, buffer.bindMemory(to: guint8.self).baseAddress,
                                         Int32(pixels.width), Int32(pixels.height), Int32(pixels.rowStride))
        }
        let info = try termInfo(kind, id: id)
        defer { chafa_term_info_unref(info) }
        guard let printed = chafa_canvas_print(canvas, info) else { throw ImageError.rendering("libchafa printed nothing") }
        defer { g_string_free(printed, 1) }
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(printed.pointee.str).assumingMemoryBound(to: UInt8.self),
                                              count: Int(printed.pointee.len)))
        return EncodedPicture(id: id, pixelProtocol: kind, columns: Int(width), rows: Int(height), pixelSize: target, bytes: bytes)
    }

    private static func pixelMode(_ kind: PixelProtocol) -> ChafaPixelMode {
        switch kind {
        case .kitty: CHAFA_PIXEL_MODE_KITTY
        case .sixel: CHAFA_PIXEL_MODE_SIXELS
        case .iterm2: CHAFA_PIXEL_MODE_ITERM2
        }
    }

    /// libchafa's sequences, with kitty's start given the picture's id (so it can be deleted by
    /// it), quiet replies (a reply would arrive as keys) and the cursor left in place.
    private static func termInfo(_ kind: PixelProtocol, id: UInt32) throws -> OpaquePointer {
        guard let fallback = chafa_term_db_get_fallback_info(chafa_term_db_get_default()) else {
            throw ImageError.rendering("libchafa has no terminal sequences")
        }
        guard kind == .kitty else { return fallback }
        let start = "\u{1B}_Ga=T,i=\(id),q=2,C=1,f=%1,s=%2,v=%3,c=%4,r=%5,m=1\u{1B}\\"
        guard chafa_term_info_set_seq(fallback, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1, start, nil) != 0 else {
            chafa_term_info_unref(fallback)
            throw ImageError.rendering("libchafa refused the kitty sequence")
        }
        return fallback
    }
}
