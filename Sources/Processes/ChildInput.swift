import Foundation

/// A child's streamed standard input, written as the child reads it, in pieces of about 256 KB
/// (a file's few small writes would each be a system call). A write after the child stopped
/// reading (it failed, say) is dropped, with no SIGPIPE: its exit status tells the caller why.
public final class ChildInput {
    private static let pieceSize = 1 << 18
    private let descriptor: Int32
    private var open = true
    private var pending = Data()

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Queues `data`, writing once a piece is full.
    public func write(_ data: Data) {
        pending.append(data)
        if pending.count >= Self.pieceSize { flush() }
    }

    /// Queues `text` as UTF-8.
    public func write(_ text: String) { write(Data(text.utf8)) }

    /// Writes what is pending; the runner closes the pipe after.
    func flush() {
        if open { open = PipeWrite.all(pending, to: descriptor) }
        pending.removeAll(keepingCapacity: true)
    }

    /// The runner closed the pipe: a write kept past the run goes nowhere, never to a descriptor
    /// the number may have been given to since.
    func close() {
        open = false
        pending.removeAll()
    }
}
