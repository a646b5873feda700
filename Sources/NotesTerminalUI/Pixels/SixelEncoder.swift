import UnCloudNotesKit

/// Sixel pictures written here rather than by libchafa, whose sixel path (a palette chosen by
/// sorting the pixels, a nearest-colour search for each) took most of a 12 MP photo's time to
/// picture: the pixels are resampled to the picture's size, given a palette of at most 255
/// colours by median cut over a 5-bit-per-channel histogram (each pixel takes its histogram
/// box's colour, no search), and written as sixel bands with run-length encoding.
enum SixelEncoder {
    /// The DCS sequence drawing `pixels` scaled to `width` x `height`, at the cursor, its
    /// background transparent (P2 = 1: pixels never drawn keep the cell's colour).
    static func encode(_ pixels: DecodedImage, width: Int, height: Int) -> [UInt8] {
        let rgb = resampled(pixels, width: width, height: height)
        let palette = MedianCutPalette(rgb: rgb, maxColors: 255)
        var output: [UInt8] = []
        output.reserveCapacity(width * height / 2)
        output += Array("\u{1B}P0;1;0q\"1;1;\(width);\(height)".utf8)
        for (index, color) in palette.colors.enumerated() {
            let percent = color.map { (Int($0) * 100 + 127) / 255 }
            output += Array("#\(index);2;\(percent[0]);\(percent[1]);\(percent[2])".utf8)
        }
        let indices = palette.indices(of: rgb, width: width)
        writeBands(indices, width: width, height: height, colorCount: palette.colors.count, into: &output)
        output += Array("\u{1B}\\".utf8)
        return output
    }

    /// RGB, 3 bytes a pixel, `width` x `height`: each pixel the average of the source pixels it
    /// covers (the nearest one when enlarging), alpha dropped.
    static func resampled(_ image: DecodedImage, width: Int, height: Int) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let columnStarts = (0...width).map { min(image.width, $0 * image.width / width) }
        let rowStarts = (0...height).map { min(image.height, $0 * image.height / height) }
        image.pixels.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
            rgb.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let top = rowStarts[y], bottom = max(rowStarts[y + 1], top + 1)
                    for x in 0..<width {
                        let left = columnStarts[x], right = max(columnStarts[x + 1], left + 1)
                        var red = 0, green = 0, blue = 0
                        for row in top..<bottom {
                            var offset = row * image.rowStride + left * 4
                            for _ in left..<right {
                                red += Int(source[offset])
                                green += Int(source[offset + 1])
                                blue += Int(source[offset + 2])
                                offset += 4
                            }
                        }
                        let count = (bottom - top) * (right - left), out = (y * width + x) * 3
                        target[out] = UInt8(red / count)
                        target[out + 1] = UInt8(green / count)
                        target[out + 2] = UInt8(blue / count)
                    }
                }
            }
        }
        return rgb
    }

    /// Six rows at a time: for each colour in the band, one line of sixel characters (bit n is
    /// the band's row n), from its first column to its last, runs of four or more repeated as
    /// `!count`; `$` goes back to the band's start, `-` to the next band.
    private static func writeBands(_ indices: [UInt8], width: Int, height: Int, colorCount: Int, into output: inout [UInt8]) {
        var masks = [UInt8](repeating: 0, count: colorCount * width)
        var first = [Int](repeating: Int.max, count: colorCount)
        var last = [Int](repeating: -1, count: colorCount)
        var present: [Int] = []
        for top in stride(from: 0, to: height, by: 6) {
            present.removeAll(keepingCapacity: true)
            for row in top..<min(top + 6, height) {
                let bit = UInt8(1) << UInt8(row - top)
                for x in 0..<width {
                    let color = Int(indices[row * width + x])
                    if last[color] < 0 { present.append(color) }
                    masks[color * width + x] |= bit
                    first[color] = min(first[color], x)
                    last[color] = max(last[color], x)
                }
            }
            for (position, color) in present.enumerated() {
                if position > 0 { output.append(UInt8(ascii: "$")) }
                output += Array("#\(color)".utf8)
                if first[color] > 0 { writeRun(63, count: first[color], into: &output) }
                var x = first[color]
                while x <= last[color] {
                    let mask = masks[color * width + x]
                    var end = x + 1
                    while end <= last[color], masks[color * width + end] == mask { end += 1 }
                    writeRun(63 + mask, count: end - x, into: &output)
                    x = end
                }
                for column in first[color]...last[color] { masks[color * width + column] = 0 }
                first[color] = Int.max
                last[color] = -1
            }
            output.append(UInt8(ascii: "-"))
        }
    }

    private static func writeRun(_ character: UInt8, count: Int, into output: inout [UInt8]) {
        if count >= 4 {
            output += Array("!\(count)".utf8)
            output.append(character)
        } else {
            for _ in 0..<count { output.append(character) }
        }
    }
}

/// A palette for an image by median cut: the colours' 5-bit-per-channel histogram is split, box
/// by box, at the median of the widest channel of the box holding the most pixels, until there
/// are enough boxes; a box's colour is the mean of its pixels.
struct MedianCutPalette {
    private(set) var colors: [[UInt8]] = []
    /// The palette index + 1 of each histogram bin (15 bits: red, green, blue); 0 for a bin no
    /// pixel of the image fell in.
    private var indexOfBin = [UInt8](repeating: 0, count: 1 << 15)

    private struct Bin {
        let key: Int
        let count: Int
        func channel(_ channel: Int) -> Int { (key >> (10 - 5 * channel)) & 31 }
    }

    init(rgb: [UInt8], maxColors: Int) {
        var counts = [Int](repeating: 0, count: 1 << 15)
        var sums = [Int](repeating: 0, count: 3 << 15)
        rgb.withUnsafeBufferPointer { pixels in
            var offset = 0
            while offset < pixels.count {
                let red = Int(pixels[offset]), green = Int(pixels[offset + 1]), blue = Int(pixels[offset + 2])
                let key = Self.bin(pixels[offset], pixels[offset + 1], pixels[offset + 2])
                counts[key] += 1
                sums[key * 3] += red
                sums[key * 3 + 1] += green
                sums[key * 3 + 2] += blue
                offset += 3
            }
        }
        var boxes: [[Bin]] = [counts.indices.filter { counts[$0] > 0 }.map { Bin(key: $0, count: counts[$0]) }]
        var population = [boxes[0].reduce(0) { $0 + $1.count }]
        while boxes.count < maxColors {
            // The most crowded box that can still be split.
            guard let chosen = boxes.indices.filter({ boxes[$0].count > 1 }).max(by: { population[$0] < population[$1] }) else { break }
            let box = boxes[chosen]
            let widest = (0..<3).max { channel, other in
                Self.range(of: box, channel) < Self.range(of: box, other)
            } ?? 0
            let sorted = box.sorted { $0.channel(widest) < $1.channel(widest) }
            var below = 0, split = 1
            for (position, bin) in sorted.enumerated().dropLast() {
                below += bin.count
                split = position + 1
                if below * 2 >= population[chosen] { break }
            }
            boxes[chosen] = Array(sorted[..<split])
            boxes.append(Array(sorted[split...]))
            population.append(population[chosen] - below)
            population[chosen] = below
        }
        for (index, box) in boxes.enumerated() {
            var total = 0, red = 0, green = 0, blue = 0
            for bin in box {
                total += bin.count
                red += sums[bin.key * 3]
                green += sums[bin.key * 3 + 1]
                blue += sums[bin.key * 3 + 2]
                indexOfBin[bin.key] = UInt8(index + 1)
            }
            colors.append([UInt8(red / max(1, total)), UInt8(green / max(1, total)), UInt8(blue / max(1, total))])
        }
    }

    /// The histogram bin of a colour: its channels' top 5 bits.
    private static func bin(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        (Int(red) >> 3) << 10 | (Int(green) >> 3) << 5 | Int(blue) >> 3
    }

    private static func range(of box: [Bin], _ channel: Int) -> Int {
        var low = 31, high = 0
        for bin in box {
            low = min(low, bin.channel(channel))
            high = max(high, bin.channel(channel))
        }
        return high - low
    }

    /// A 4x4 Bayer matrix: the order in which a pixel's position tips it into the next bin.
    private static let bayer: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// Each pixel's palette index, ordered-dithered: a pixel moves up to one histogram bin (8
    /// levels a channel) by its place in a 4x4 pattern before its bin is looked up, so a smooth
    /// gradient (a sky) mixes neighbouring palette colours instead of showing bands, at no cost
    /// of a search. A move into a bin no pixel of the image fell in (so in no palette box) keeps
    /// the pixel's own bin.
    func indices(of rgb: [UInt8], width: Int) -> [UInt8] {
        var indices = [UInt8](repeating: 0, count: rgb.count / 3)
        for pixel in indices.indices {
            let offset = pixel * 3
            let (red, green, blue) = (rgb[offset], rgb[offset + 1], rgb[offset + 2])
            let shift = Self.bayer[(pixel / width & 3) * 4 + (pixel % width & 3)] - 8
            func dithered(_ value: UInt8) -> UInt8 { UInt8(clamping: Int(value) + shift) }
            let moved = indexOfBin[Self.bin(dithered(red), dithered(green), dithered(blue))]
            indices[pixel] = (moved > 0 ? moved : indexOfBin[Self.bin(red, green, blue)]) - 1
        }
        return indices
    }
}
