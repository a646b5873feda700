import Foundation
import Synchronization

/// Random UUIDs (version 4) cut from a buffer of the kernel's random bytes, refilled 4 KB at a
/// time from `/dev/urandom`, opened once. On Linux `UUID()` opens, reads and closes
/// `/dev/urandom` on every call: a migration that gives every row an identifier paid that per
/// note and per attachment.
final class RandomIdentifiers: Sendable {
    private static let bufferSize = 4096
    private let buffer = Mutex(Buffer())

    private struct Buffer {
        var bytes = [UInt8](repeating: 0, count: RandomIdentifiers.bufferSize)
        /// Where the next identifier's 16 bytes start; at the end, the buffer is refilled first.
        var next = RandomIdentifiers.bufferSize
        /// `/dev/urandom`, open for the process's life once first read (-1 before, or if it cannot be).
        var source: Int32 = -1
    }

    /// A new identifier, as random as `UUID()`'s, with the version (4) and variant bits set.
    func next() -> UUID {
        buffer.withLock { buffer in
            if buffer.next + 16 > buffer.bytes.count {
                Self.fill(&buffer)
                buffer.next = 0
            }
            var b = Array(buffer.bytes[buffer.next..<buffer.next + 16])
            buffer.next += 16
            b[6] = (b[6] & 0x0F) | 0x40
            b[8] = (b[8] & 0x3F) | 0x80
            return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        }
    }

    /// Fills the buffer from `/dev/urandom`; where it cannot be read, from the standard library's
    /// system generator, as random but asking the kernel once per 8 bytes.
    private static func fill(_ buffer: inout Buffer) {
        if buffer.source < 0 { buffer.source = open("/dev/urandom", O_RDONLY | O_CLOEXEC) }
        let count = buffer.bytes.count
        var filled = 0
        if buffer.source >= 0 {
            filled = buffer.bytes.withUnsafeMutableBytes { bytes in
                var done = 0
                while done < count {
                    // count > 0 bytes are asked for here, so the buffer has an address.
                    let result = read(buffer.source, bytes.baseAddress! + done, count - done)
                    if result > 0 { done += result } else if result < 0 && errno == EINTR { continue } else { break }
                }
                return done
            }
        }
        guard filled < count else { return }
        var generator = SystemRandomNumberGenerator()
        for index in stride(from: 0, to: count, by: 8) {
            withUnsafeBytes(of: generator.next()) { word in
                for offset in 0..<min(8, count - index) { buffer.bytes[index + offset] = word[offset] }
            }
        }
    }
}
