import Foundation
import Testing
@testable import UnCloudNotesKit

/// The identifiers a v4 -> v5 migration gives notes and attachments, cut from a buffer of random bytes.
@Suite("Random identifiers for a migration")
struct RandomIdentifiersTests {
    @Test("identifiers are RFC 4122 version 4, all different across many buffer refills, and differ between sources")
    func versionFourAndUnique() {
        let identifiers = RandomIdentifiers()
        let made = (0..<20_000).map { _ in identifiers.next() }
        #expect(Set(made).count == made.count)
        for identifier in made.prefix(1_000) {
            let bytes = withUnsafeBytes(of: identifier.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4, "version nibble of \(identifier)")
            #expect(bytes[8] >> 6 == 0b10, "variant bits of \(identifier)")
        }
        // Not a fixed sequence: a second source starts elsewhere.
        #expect(RandomIdentifiers().next() != made[0])
        // Random bits everywhere but the version and variant: each other nibble takes many values.
        let nibbles = made.prefix(2_000).map { $0.uuidString.replacingOccurrences(of: "-", with: "") }
        for position in [0, 11, 13, 20, 31] {
            let values = Set(nibbles.map { Array($0)[position] })
            #expect(values.count >= 12, "nibble \(position) took \(values.count) values")
        }
    }
}
