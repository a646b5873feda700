import CChafa
import UnCloudNotesKit

/// Encodes an image for a graphics protocol, at the exact pixel size of the cells it covers:
/// decoded no smaller than that (a JPEG scaled down while decoding), then scaled to it and
/// printed by libchafa's kitty or iTerm2 encoder, or by `SixelEncoder`.
public enum PixelEncoder {
    /// The picture of `image` fitting `columns` x `rows` cells of `cell` pixels, keeping its aspect
    /// ratio: it covers the whole cells it needs, from the top left, and no more.
    public static func encode(_ image: NoteImage, columns: Int, rows: Int, cell: PixelSize, as kind: PixelProtocol, id: UInt32) throws -> EncodedPicture {
        guard columns > 0, rows > 0, cell.width > 0, cell.height > 0 else { throw ImageError.rendering(.noRoom) }
        let size = try image.pixelSize()
        var width = Int32(columns), height = Int32(rows)
        chafa_calc_canvas_geometry(Int32(size.width), Int32(size.height), &width, &height,
                                   Float(cell.width) / Float(cell.height), 1, 0)
        width = max(1, min(Int32(columns), width))
        height = max(1, min(Int32(rows), height))
        let target = PixelSize(width: Int(width) * cell.width, height: Int(height) * cell.height)
        let pixels = try image.decoded(coveringWidth: target.width, height: target.height)
        let bytes = switch kind {
        case .sixel: SixelEncoder.encode(pixels, width: target.width, height: target.height)
        case .kitty: try printedByChafa(pixels, columns: width, rows: height, cell: cell, mode: CHAFA_PIXEL_MODE_KITTY, info: kittyInfo(id: id))
        case .iterm2: try printedByChafa(pixels, columns: width, rows: height, cell: cell, mode: CHAFA_PIXEL_MODE_ITERM2, info: fallbackInfo())
        }
        return EncodedPicture(id: id, pixelProtocol: kind, columns: Int(width), rows: Int(height), pixelSize: target, bytes: bytes)
    }

    /// libchafa's picture of `pixels` over the cells, in `mode`; `info` (its sequences) is released.
    private static func printedByChafa(_ pixels: DecodedImage, columns: Int32, rows: Int32, cell: PixelSize, mode: ChafaPixelMode,
                                       info: OpaquePointer) throws -> [UInt8] {
        defer { chafa_term_info_unref(info) }
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, columns, rows)
        chafa_canvas_config_set_cell_geometry(config, Int32(cell.width), Int32(cell.height))
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        chafa_canvas_config_set_pixel_mode(config, mode)
        guard let canvas = chafa_canvas_new(config) else { throw ImageError.rendering(.noCanvas) }
        defer { chafa_canvas_unref(canvas) }
        pixels.pixels.withUnsafeBytes { buffer in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, buffer.bindMemory(to: guint8.self).baseAddress,
                                         Int32(pixels.width), Int32(pixels.height), Int32(pixels.rowStride))
        }
        guard let printed = chafa_canvas_print(canvas, info) else { throw ImageError.rendering(.nothingPrinted) }
        defer { g_string_free(printed, 1) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(printed.pointee.str).assumingMemoryBound(to: UInt8.self),
                                         count: Int(printed.pointee.len)))
    }

    private static func fallbackInfo() throws -> OpaquePointer {
        guard let fallback = chafa_term_db_get_fallback_info(chafa_term_db_get_default()) else {
            throw ImageError.rendering(.noTerminalSequences)
        }
        return fallback
    }

    /// libchafa's sequences, with kitty's start given the picture's id (so it can be deleted by
    /// it), quiet replies (a reply would arrive as keys) and the cursor left in place.
    private static func kittyInfo(id: UInt32) throws -> OpaquePointer {
        let info = try fallbackInfo()
        let start = "\u{1B}_Ga=T,i=\(id),q=2,C=1,f=%1,s=%2,v=%3,c=%4,r=%5,m=1\u{1B}\\"
        guard chafa_term_info_set_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1, start, nil) != 0 else {
            chafa_term_info_unref(info)
            throw ImageError.rendering(.kittySequenceRefused)
        }
        return info
    }
}
