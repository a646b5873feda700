import Foundation
import Testing
import TestSupport
import UnCloudNotesKit
@testable import NotesTerminalUI

/// The sixel pictures the app writes itself, read back by a sixel reader: their size, and
/// colours close to the source's.
@Suite("Sixel pictures")
struct SixelEncoderTests {
    /// The pixels a sixel sequence paints, by a reader of the format (palette `#i;2;r;g;b` in
    /// percent, `#i` to choose, `!n` repeats, `$` back to the band's start, `-` the next band).
    struct SixelImage {
        var width = 0, height = 0
        var pixels: [Int: (red: Int, green: Int, blue: Int)] = [:]

        init(_ bytes: [UInt8]) throws {
            let text = String(decoding: bytes, as: UTF8.self)
            let start = try #require(text.range(of: "q\""), "a DCS with raster attributes")
            #expect(text.hasPrefix("\u{1B}P0;1;0q"), "transparent background")
            #expect(text.hasSuffix("\u{1B}\\"))
            var body = Substring(text[start.upperBound...].dropLast(2))
            let raster = body.prefix { $0 != "#" }.split(separator: ";").compactMap { Int($0) }
            try #require(raster.count == 4)
            (width, height) = (raster[2], raster[3])
            body = body.drop { $0 != "#" }
            var palette: [Int: (Int, Int, Int)] = [:]
            var color = 0, x = 0, band = 0
            func number() -> Int {
                let digits = body.prefix { $0.isNumber }
                body = body.dropFirst(digits.count)
                return Int(digits) ?? 0
            }
            while let character = body.first {
                body = body.dropFirst()
                switch character {
                case "#":
                    color = number()
                    if body.first == ";" {
                        let values = (0..<4).map { _ in body = body.dropFirst(); return number() }
                        palette[color] = (values[1] * 255 / 100, values[2] * 255 / 100, values[3] * 255 / 100)
                    }
                case "$": x = 0
                case "-": (x, band) = (0, band + 1)
                default:
                    var count = 1, sixel = character
                    if character == "!" {
                        count = number()
                        sixel = body.removeFirst()
                    }
                    let bits = Int(sixel.asciiValue ?? 63) - 63
                    for _ in 0..<count {
                        for row in 0..<6 where bits & (1 << row) != 0 {
                            let rgb = try #require(palette[color], "colour \(color) defined before use")
                            pixels[(band * 6 + row) * width + x] = rgb
                        }
                        x += 1
                    }
                }
            }
        }
    }

    @Test("a picture is the cells' exact pixel size, every pixel painted once, in colours close to the source's")
    func roundTrip() throws {
        let image = try NoteImage(validating: TestImages.encoded(width: 400, height: 300, format: "png"))
        let picture = try PixelEncoder.encode(image, columns: 42, rows: 16, cell: PixelSize(width: 10, height: 20), as: .sixel, id: 1)
        let read = try SixelImage(picture.bytes)
        #expect((read.width, read.height) == (picture.pixelSize.width, picture.pixelSize.height))
        #expect(read.width == picture.columns * 10 && read.height == picture.rows * 20)
        #expect(read.pixels.count == read.width * read.height, "every pixel painted")
        // The gradient: red from 0 (left) to 255 (right), green from 0 (top) to 255 (bottom), blue 128.
        var error = 0
        for (offset, rgb) in read.pixels {
            let x = offset % read.width, y = offset / read.width
            error += abs(rgb.red - x * 255 / (read.width - 1)) + abs(rgb.green - y * 255 / (read.height - 1)) + abs(rgb.blue - 128)
        }
        #expect(Double(error) / Double(read.pixels.count * 3) < 6, "mean error per channel")
    }

    @Test("a picture of few colours has a palette of those colours only")
    func fewColours() throws {
        let rgb: [UInt8] = (0..<(12 * 12)).flatMap { $0 % 12 < 6 ? [255, 0, 0] : [0, 0, 255] as [UInt8] }
        let palette = MedianCutPalette(rgb: rgb, maxColors: 255)
        #expect(palette.colors.count == 2)
        #expect(Set(palette.indices(of: rgb, width: 12)).count == 2)
        #expect(Set(palette.colors) == [[255, 0, 0], [0, 0, 255]])
    }

    @Test("a smooth gradient is dithered: its columns mix neighbouring palette colours, and average closer to the truth than bands")
    func dithering() throws {
        let width = 64, height = 8
        let rgb: [UInt8] = (0..<(width * height)).flatMap { pixel -> [UInt8] in
            let level = UInt8(pixel % width * 255 / (width - 1))
            return [level, level, level]
        }
        let palette = MedianCutPalette(rgb: rgb, maxColors: 4)
        let indices = palette.indices(of: rgb, width: width)
        let mixedColumns = (0..<width).filter { x in Set((0..<height).map { indices[$0 * width + x] }).count > 1 }
        #expect(mixedColumns.count >= 3, "every edge between the 4 colours mixes: \(mixedColumns)")
        // Each column's mean drawn level against its true level, over the whole gradient.
        var dithered = 0.0, banded = 0.0
        for x in 0..<width {
            let truth = Double(x * 255 / (width - 1))
            let drawn = (0..<height).map { Double(palette.colors[Int(indices[$0 * width + x])][0]) }.reduce(0, +) / Double(height)
            dithered += abs(drawn - truth)
            let nearest = palette.colors.map { Double($0[0]) }.min { abs($0 - truth) < abs($1 - truth) } ?? 0
            banded += abs(nearest - truth)
        }
        #expect(dithered < banded, "dithered error \(dithered), nearest-colour bands \(banded)")
    }
}
