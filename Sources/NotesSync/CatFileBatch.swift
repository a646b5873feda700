import Foundation

/// `git cat-file --batch`'s answer: for each request, `<id> <type> <size>` and that many bytes,
/// or `<request> missing`. Anything else (a cut answer, a header of another shape, a missing
/// answer) is an error: a file that could not be read is never taken for one that is absent.
enum CatFileBatch {
    static func parse(_ output: Data, requests: [String]) throws(SyncError) -> [Data?] {
        let bytes = [UInt8](output)
        var position = 0
        var files: [Data?] = []
        for request in requests {
            guard let newline = bytes[position...].firstIndex(of: 10) else { throw cut }
            let header = String(decoding: bytes[position..<newline], as: UTF8.self)
            position = newline + 1
            if header == "\(request) missing" {
                files.append(nil)
                continue
            }
            let fields = header.split(separator: " ")
            guard fields.count == 3, GitAnswer.isObjectID(String(fields[0])), fields[1] == "blob", let size = Int(fields[2]), size >= 0,
                  position + size < bytes.count, bytes[position + size] == 10 else {
                throw .untrustedGitAnswer(command: "cat-file --batch", expected: "each file asked for, or the word missing")
            }
            files.append(Data(bytes[position..<(position + size)]))
            position += size + 1
        }
        guard position == bytes.count else { throw cut }
        return files
    }

    private static var cut: SyncError { .untrustedGitAnswer(command: "cat-file --batch", expected: "one answer for each file asked for") }
}
