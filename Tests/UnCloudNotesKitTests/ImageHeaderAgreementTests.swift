import Foundation
import Testing
import TestSupport
@testable import UnCloudNotesKit

/// The migration sizes images from `ImageHeader` alone: it must agree with gdk-pixbuf on real
/// images and never trap on damaged ones.
@Suite("Image headers agree with gdk-pixbuf and survive damage")
struct ImageHeaderAgreementTests {
    /// The app's sample images (Resources/SampleImages) and encoded ones of every accepted format.
    static let realImages: [(name: String, data: Data)] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/SampleImages")
        let samples = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().compactMap { name in
            (try? Data(contentsOf: folder.appendingPathComponent(name))).map { (name, $0) }
        }
        let formats = ["png", "jpeg"] + (ImageFormats.supported.contains(.webp) ? ["webp"] : [])
        return samples + formats.map { ("encoded.\($0)", TestImages.encoded(width: 123, height: 45, format: $0)) }
            + [("gif", TestImages.gif(width: 7, height: 3))]
    }()

    @Test("the header's size is gdk-pixbuf's on the sample images and encoded ones")
    func agreesWithPixbuf() throws {
        #expect(Self.realImages.filter { $0.name.hasPrefix("encoded") == false && $0.name != "gif" }.count >= 3,
                "the sample images are missing")
        for (name, data) in Self.realImages {
            let header = try ImageHeader(data)
            let pixbuf = try PixbufLoader.header(of: data)
            #expect(header.width == pixbuf.width && header.height == pixbuf.height, "\(name)")
        }
    }

    @Test("a 12-megapixel JPEG: the header's size is gdk-pixbuf's")
    func phonePhotoAgrees() throws {
        let photo = TestImages.encoded(width: 4000, height: 3000, format: "jpeg")
        let pixbuf = try PixbufLoader.header(of: photo)
        #expect(try ImageHeader(photo) == ImageHeader(format: .jpeg, width: pixbuf.width, height: pixbuf.height))
    }

    @Test("mutated and truncated real images never trap: a size above zero or an ImageError")
    func damagedImages() {
        var random = SplitMix64(seed: 13)
        for (name, original) in Self.realImages {
            for round in 0..<400 {
                var data = Data(original.prefix(4096))
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let offset = Int.random(in: 0..<min(data.count, 64 + round), using: &random)
                    data[offset] = UInt8.random(in: 0...255, using: &random)
                }
                if round % 3 == 0 { data = data.prefix(Int.random(in: 0...data.count, using: &random)) }
                do {
                    let header = try ImageHeader(data)
                    #expect(header.width > 0 && header.height > 0, "\(name) round \(round)")
                } catch {
                    #expect(error is ImageError, "\(name) round \(round): \(error)")
                }
            }
        }
    }
}
