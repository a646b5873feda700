import CZlib
import Foundation

/// Inflates raw DEFLATE data (no zlib or gzip header), as Core Data compresses the model it caches
/// in a store. The output is bounded, so a small hostile blob cannot claim unbounded memory.
enum RawInflater {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Compiled models are kilobytes; 64 MB leaves room for any real one.
    static let maximumOutput = 64 << 20

    static func inflate(_ input: Data, maximumOutput: Int = maximumOutput) throws -> Data {
        var stream = z_stream()
        // Negative window bits: raw DEFLATE, no header or checksum.
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var source = [UInt8](input)
        let status: Int32 = source.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                let result = chunk.withUnsafeMutableBufferPointer { chunkBuffer -> Int32 in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    let result = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: chunkBuffer.prefix(chunkBuffer.count - Int(stream.avail_out)))
                    return result
                }
                guard result == Z_OK, output.count <= maximumOutput else { return result }
                if stream.avail_in == 0 && stream.avail_out != 0 { return Z_BUF_ERROR }
            }
        }
        guard output.count <= maximumOutput else {
            throw Failure(description: "the data inflates to more than \(maximumOutput >> 20) MB")
        }
        guard status == Z_STREAM_END else {
            throw Failure(description: "not valid DEFLATE data (zlib status \(status))")
        }
        return output
    }
}
