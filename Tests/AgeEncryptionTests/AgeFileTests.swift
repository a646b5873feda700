@testable import AgeEncryption
import Foundation
import Testing
import TestSupport

/// What the format promises: what is sealed opens with the right key only, and a file changed
/// anywhere opens to nothing, with one line saying why.
@Suite("age files open only whole and only with the right key")
struct AgeFileTests {
    static let sizes = [0, 1, 100, AgePayload.chunkSize - 1, AgePayload.chunkSize, AgePayload.chunkSize + 1, 3 * AgePayload.chunkSize + 5]

    static func bytes(_ count: Int, seed: UInt64 = 1) -> Data {
        var random = SplitMix64(seed: seed)
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    @Test("every size round-trips, for one recipient and for several", arguments: sizes)
    func roundTrip(size: Int) throws {
        let alice = AgeIdentity(), bob = AgeIdentity()
        let plaintext = Self.bytes(size)
        let sealed = try AgeFile.encrypt(plaintext, to: [alice.recipient, bob.recipient])
        #expect(AgeFile.looksEncrypted(sealed))
        #expect(try AgeFile.decrypt(sealed, with: [alice]) == plaintext)
        #expect(try AgeFile.decrypt(sealed, with: [AgeIdentity(), bob]) == plaintext)
    }

    @Test("two encryptions of the same bytes differ (fresh file key and nonce)")
    func fresh() throws {
        let alice = AgeIdentity()
        let first = try AgeFile.encrypt(Data("same".utf8), to: [alice.recipient])
        #expect(try first != AgeFile.encrypt(Data("same".utf8), to: [alice.recipient]))
    }

    @Test("the wrong key opens nothing")
    func wrongKey() throws {
        let sealed = try AgeFile.encrypt(Data("secret".utf8), to: [AgeIdentity().recipient])
        #expect(throws: AgeError.noMatchingIdentity) { try AgeFile.decrypt(sealed, with: [AgeIdentity()]) }
        #expect(throws: AgeError.noRecipients) { try AgeFile.encrypt(Data(), to: []) }
    }

    @Test("a flipped bit anywhere in the header opens nothing")
    func headerFlips() throws {
        let alice = AgeIdentity()
        let sealed = try AgeFile.encrypt(Data("secret".utf8), to: [alice.recipient])
        let headerEnd = try #require(sealed.range(of: Data("\n--- ".utf8))).upperBound + 44
        for position in 0..<headerEnd {
            var damaged = sealed
            damaged[position] ^= 0x04
            #expect(throws: AgeError.self, "byte \(position)") { try AgeFile.decrypt(damaged, with: [alice]) }
        }
    }

    @Test("a flipped bit in any chunk names that chunk", arguments: [0, 1, 2, 3])
    func chunkFlip(chunk: Int) throws {
        let alice = AgeIdentity()
        let sealed = try AgeFile.encrypt(Self.bytes(3 * AgePayload.chunkSize + 5), to: [alice.recipient])
        let payload = try #require(sealed.range(of: Data("\n--- ".utf8))).upperBound + 44 + 16
        for offset in [0, 1000, AgePayload.chunkSize + 15] where chunk < 3 || offset < 21 {
            var damaged = sealed
            damaged[payload + chunk * (AgePayload.chunkSize + 16) + offset] ^= 0x80
            #expect(throws: AgeError.chunkChanged(index: chunk)) { try AgeFile.decrypt(damaged, with: [alice]) }
        }
    }

    @Test("chunks swapped, a file cut anywhere, or bytes added at its end open nothing")
    func reorderedCutAndExtended() throws {
        let alice = AgeIdentity()
        let sealedChunk = AgePayload.chunkSize + 16
        let sealed = try AgeFile.encrypt(Self.bytes(2 * AgePayload.chunkSize + 7), to: [alice.recipient])
        let payload = try #require(sealed.range(of: Data("\n--- ".utf8))).upperBound + 44 + 16
        var swapped = sealed
        swapped.replaceSubrange(payload..<(payload + 2 * sealedChunk),
                                with: sealed[(payload + sealedChunk)..<(payload + 2 * sealedChunk)] + sealed[payload..<(payload + sealedChunk)])
        #expect(throws: AgeError.chunkChanged(index: 0)) { try AgeFile.decrypt(swapped, with: [alice]) }
        // Cut after a whole middle chunk: it opens as a middle chunk, so the end is missing.
        #expect(throws: AgeError.truncated) { try AgeFile.decrypt(sealed.prefix(payload + sealedChunk), with: [alice]) }
        for length in [0, 10, 22, payload - 1, payload, payload + 15, payload + 100, sealed.count - 1] {
            #expect(throws: AgeError.self, "cut at \(length)") { try AgeFile.decrypt(sealed.prefix(length), with: [alice]) }
        }
        #expect(throws: AgeError.self) { try AgeFile.decrypt(sealed + Data([0]), with: [alice]) }
    }

    @Test("what is not an age v1 file says so")
    func notAge() throws {
        #expect(throws: AgeError.notAnAgeFile) { try AgeFile.decrypt(Data("---\ntitle: plain\n".utf8), with: [AgeIdentity()]) }
        #expect(throws: AgeError.unsupportedVersion("v2")) { try AgeFile.decrypt(Data("age-encryption.org/v2\n".utf8), with: [AgeIdentity()]) }
        #expect(!AgeFile.looksEncrypted(Data("---\n".utf8)))
    }

    @Test("random damage never traps: each damaged file opens to its plaintext or to an error", arguments: 0..<4)
    func fuzz(seed: UInt64) throws {
        let alice = AgeIdentity()
        let plaintext = Self.bytes(200 + Int(seed) * 40_000, seed: seed)
        let sealed = try AgeFile.encrypt(plaintext, to: [alice.recipient, AgeIdentity().recipient])
        var random = SplitMix64(seed: seed &+ 99)
        for _ in 0..<300 {
            var damaged = sealed
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let position = Int.random(in: 0..<damaged.count, using: &random)
                damaged[position] = UInt8.random(in: 0...255, using: &random)
            case 1:
                let position = Int.random(in: 0...damaged.count, using: &random)
                damaged.insert(UInt8.random(in: 0...255, using: &random), at: position)
            default:
                damaged.remove(at: Int.random(in: 0..<damaged.count, using: &random))
            }
            do {
                #expect(try AgeFile.decrypt(damaged, with: [alice]) == plaintext && damaged == sealed)
            } catch {}
        }
    }
}
