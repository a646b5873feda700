import Foundation
import Processes
import Testing

/// git's input is written on sync's own thread; a git that stopped reading must not kill the
/// program with SIGPIPE (the default action), only end the input.
@Suite("Writing to a child's input")
struct PipeWriteTests {
    @Test("a write to a pipe nobody reads returns false, and no SIGPIPE reaches the process")
    func closedReader() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        #expect(!PipeWrite.all(Data("fast-import stream".utf8), to: ends[1]))
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)
    }

    @Test("a write larger than the pipe's buffer arrives whole while the reader drains it")
    func largeWrite() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let received = Task.detached { reader.readDataToEndOfFile() }
        #expect(PipeWrite.all(payload, to: ends[1]))
        close(ends[1])
        #expect(await received.value == payload)
    }
}
