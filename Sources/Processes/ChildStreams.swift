import Foundation

/// The descriptors a child's standard streams are given, made from a `Command`'s choices, and
/// what it wrote to captured ones. Every descriptor is made close-on-exec here (swift-subprocess
/// also closes all but 0, 1 and 2 in each child): the child gets its three as its 0, 1 and 2.
/// Made, then marked (`pipe2` and `mkostemp` are not in Swift's Glibc module): a program another
/// thread starts in between, by other means than this runner, could keep a copy.
final class ChildStreams {
    private(set) var input: Int32 = STDIN_FILENO
    private(set) var output: Int32 = STDOUT_FILENO
    private(set) var error: Int32 = STDERR_FILENO
    /// The caller's end of a streamed input.
    private(set) var inputWriter: Int32?
    /// The descriptors made here, closed on release.
    private var owned: [Int32] = []
    private let capturesOutput: Bool
    private let capturesError: Bool

    init(_ command: Command) throws(ProcessFailure) {
        capturesOutput = if case .captured = command.output { true } else { false }
        capturesError = if case .captured = command.error { true } else { false }
        do throws(ProcessFailure) {
            switch command.input {
            case .nothing: input = try keep(open("/dev/null", O_RDONLY | O_CLOEXEC), "/dev/null")
            case .inherited: break
            case .streamed:
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { throw .cannotPrepare("a pipe", errno: errno) }
                owned += ends
                ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
                input = ends[0]
                inputWriter = ends[1]
            }
            output = try descriptor(for: command.output) ?? STDOUT_FILENO
            error = try descriptor(for: command.error) ?? STDERR_FILENO
        } catch {
            closeAll()
            throw error
        }
    }

    /// A descriptor made for `choice`; nil for the inherited one.
    private func descriptor(for choice: Command.Output) throws(ProcessFailure) -> Int32? {
        switch choice {
        case .inherited: return nil
        case .discarded: return try keep(open("/dev/null", O_WRONLY | O_CLOEXEC), "/dev/null")
        case .file(let path): return try keep(open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600), path)
        case .captured(let folder):
            let place = folder ?? FileManager.default.temporaryDirectory.path
            var template = Array("\(place)/uncloudnotes-capture-XXXXXX".utf8CString)
            // mkostemp is not in Swift's Glibc module; a child another thread starts before the
            // fcntl may keep a copy of an unlinked file, which changes nothing here.
            let descriptor = try keep(mkstemp(&template), "a file in \(place)")
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            // Unlinked at once: nothing is left behind, whatever happens next.
            unlink(template)
            return descriptor
        }
    }

    /// `descriptor`, kept to be closed, or the failure to make `what`.
    private func keep(_ descriptor: Int32, _ what: String) throws(ProcessFailure) -> Int32 {
        guard descriptor >= 0 else { throw .cannotPrepare(what, errno: errno) }
        owned.append(descriptor)
        return descriptor
    }

    /// This process's copy of the child's end of a streamed input, closed once the child has
    /// it, so the child sees the end of its input when the caller closes the writer.
    func closeChildInput() {
        guard inputWriter != nil, let index = owned.firstIndex(of: input) else { return }
        close(owned.remove(at: index))
    }

    /// Closes the caller's end of a streamed input: the child reads to its end.
    func closeInputWriter() {
        guard let writer = inputWriter, let index = owned.firstIndex(of: writer) else { return }
        inputWriter = nil
        close(owned.remove(at: index))
    }

    /// What the child wrote to its captured output and error (empty for others).
    func captured(executable: String) throws(ProcessFailure) -> (output: Data, error: Data) {
        (capturesOutput ? try Self.read(output, executable) : Data(), capturesError ? try Self.read(error, executable) : Data())
    }

    private static func read(_ descriptor: Int32, _ executable: String) throws(ProcessFailure) -> Data {
        var data = Data()
        var offset: off_t = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotReadCapture(executable: executable, errno: errno)
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[0..<count])
            offset += off_t(count)
        }
    }

    private func closeAll() {
        owned.forEach { close($0) }
        owned = []
    }

    deinit {
        closeAll()
    }
}
