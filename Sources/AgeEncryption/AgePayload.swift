import Crypto
import Foundation

/// age's payload: the plaintext in chunks of 64 KiB, each sealed with ChaCha20-Poly1305 under a
/// nonce of an 11-byte big-endian counter and a last-chunk flag (the STREAM construction), so a
/// chunk cannot be changed, moved, dropped or followed by another without the open failing.
enum AgePayload {
    static let chunkSize = 64 * 1024
    private static let tagSize = 16

    static func seal(_ plaintext: Data, key: SymmetricKey) throws -> Data {
        var sealed = Data()
        sealed.reserveCapacity(plaintext.count + (plaintext.count / chunkSize + 1) * tagSize)
        var start = plaintext.startIndex, index = 0
        repeat {
            let end = min(start + chunkSize, plaintext.endIndex)
            let box = try ChaChaPoly.seal(plaintext[start..<end], using: key, nonce: nonce(index, last: end == plaintext.endIndex))
            sealed.append(box.ciphertext)
            sealed.append(box.tag)
            start = end
            index += 1
        } while start < plaintext.endIndex
        return sealed
    }

    static func open(_ sealed: Data, key: SymmetricKey) throws(AgeError) -> Data {
        let sealedChunk = chunkSize + tagSize
        var plaintext = Data()
        plaintext.reserveCapacity(sealed.count)
        var start = sealed.startIndex, index = 0
        while true {
            let remaining = sealed.endIndex - start
            guard remaining >= tagSize else { throw .truncated }
            if remaining > sealedChunk {
                plaintext.append(try openChunk(sealed[start..<(start + sealedChunk)], index: index, last: false, key: key))
                start += sealedChunk
                index += 1
                continue
            }
            let chunk = sealed[start...]
            // A chunk that does not open as the last is tried as a middle one below, whose failure is the error reported.
            guard let last = try? openChunk(chunk, index: index, last: true, key: key) else {
                // A full chunk that opens as a middle one: the file was cut after it.
                if remaining == sealedChunk, (try? openChunk(chunk, index: index, last: false, key: key)) != nil { throw .truncated }
                throw .chunkChanged(index: index)
            }
            guard !last.isEmpty || index == 0 else { throw .trailingData }
            plaintext.append(last)
            return plaintext
        }
    }

    private static func openChunk(_ chunk: Data, index: Int, last: Bool, key: SymmetricKey) throws(AgeError) -> Data {
        do {
            let box = try ChaChaPoly.SealedBox(nonce: nonce(index, last: last), ciphertext: chunk.dropLast(tagSize), tag: chunk.suffix(tagSize))
            return try ChaChaPoly.open(box, using: key)
        } catch {
            throw .chunkChanged(index: index)
        }
    }

    private static func nonce(_ index: Int, last: Bool) -> ChaChaPoly.Nonce {
        var bytes = [UInt8](repeating: 0, count: 12)
        var counter = UInt64(index)
        for position in stride(from: 10, through: 3, by: -1) {
            bytes[position] = UInt8(counter & 0xff)
            counter >>= 8
        }
        bytes[11] = last ? 1 : 0
        // 12 bytes is the one size ChaChaPoly.Nonce accepts, so this cannot fail.
        return try! ChaChaPoly.Nonce(data: bytes)
    }
}
