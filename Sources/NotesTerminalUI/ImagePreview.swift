import CChafa
import Foundation
import UnCloudNotesKit

/// Turns an image into terminal cells with libchafa: block and border symbols whose foreground
/// and background colours approximate the pixels, in the best mode the terminal has (true colour,
/// 256 or 16 colours), or symbols alone without colour.
public enum ImagePreview {
    /// Cells of a preview fitting `columns` x `rows`, keeping the image's aspect ratio (a cell is
    /// about twice as tall as wide). Rows may be fewer than asked.
    public static func cells(for image: NoteImage, columns: Int, rows: Int, colors: ColorSupport) throws -> [[Cell]] {
        guard columns > 0, rows > 0 else { return [] }
        let size = try image.pixelSize()
        var width = Int32(columns), height = Int32(rows)
        chafa_calc_canvas_geometry(Int32(size.width), Int32(size.height), &width, &height, 0.5, 1, 0)
        width = max(1, width)
        height = max(1, height)
        let pixels = try image.decoded(fittingWidth: Int(width) * 8, height: Int(height) * 16)

        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, width, height)
        chafa_canvas_config_set_canvas_mode(config, mode(for: colors.depth))
        let symbols = chafa_symbol_map_new()
        defer { chafa_symbol_map_unref(symbols) }
        let tags = colors.depth == .none
            ? CHAFA_SYMBOL_TAG_ASCII
            : ChafaSymbolTags(rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue)
        chafa_symbol_map_add_by_tags(symbols, tags)
        chafa_canvas_config_set_symbol_map(config, symbols)
        guard let canvas = chafa_canvas_new(config) else { throw ImageError.rendering(.noCanvas) }
        defer { chafa_canvas_unref(canvas) }
        pixels.pixels.withUnsafeBytes { buffer in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, buffer.bindMemory(to: guint8.self).baseAddress,
                                         Int32(pixels.width), Int32(pixels.height), Int32(pixels.rowStride))
        }
        return (0..<Int(height)).map { y in
            (0..<Int(width)).map { x in
                let scalar = Unicode.Scalar(chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))) ?? " "
                var cell = Cell(content: .character(Character(scalar)))
                switch colors.depth {
                case .none:
                    break
                case .direct:
                    var foreground: Int32 = 0, background: Int32 = 0
                    chafa_canvas_get_colors_at(canvas, Int32(x), Int32(y), &foreground, &background)
                    cell.foreground = rgb(foreground)
                    cell.background = rgb(background)
                case .indexed256, .sixteen:
                    var foreground: Int32 = 0, background: Int32 = 0
                    chafa_canvas_get_raw_colors_at(canvas, Int32(x), Int32(y), &foreground, &background)
                    cell.foreground = foreground >= 0 ? .palette(Int(foreground)) : nil
                    cell.background = background >= 0 ? .palette(Int(background)) : nil
                }
                return cell
            }
        }
    }

    private static func mode(for depth: ColorSupport.Depth) -> ChafaCanvasMode {
        switch depth {
        case .none: CHAFA_CANVAS_MODE_FGBG
        case .sixteen: CHAFA_CANVAS_MODE_INDEXED_16
        case .indexed256: CHAFA_CANVAS_MODE_INDEXED_240
        case .direct: CHAFA_CANVAS_MODE_TRUECOLOR
        }
    }

    private static func rgb(_ packed: Int32) -> TerminalColor? {
        guard packed >= 0 else { return nil }
        return .rgb(UInt8((packed >> 16) & 0xFF), UInt8((packed >> 8) & 0xFF), UInt8(packed & 0xFF))
    }
}
