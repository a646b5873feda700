import Foundation

/// An age v1 header: the file key wrapped once per recipient (stanzas), then a MAC over the
/// header's bytes. This file only frames it; `AgeFile` does the cryptography.
struct AgeHeader {
    /// One recipient stanza: `-> TYPE ARG…` and a base64 body.
    struct Stanza: Equatable {
        var arguments: [String]
        var body: Data
        /// The header line the stanza starts at (counted from 1), for errors.
        var line = 0
    }

    static let versionLine = Data("age-encryption.org/v1\n".utf8)
    private static let columns = 64

    var stanzas: [Stanza]
    /// The bytes the MAC covers: from the version line through `---`.
    var authenticatedBytes: Data
    var mac: Data
    /// Where the payload starts in the file.
    var payloadOffset: Int

    /// The bytes the MAC covers, for stanzas about to be written.
    static func authenticatedBytes(of stanzas: [Stanza]) -> Data {
        var text = versionLine
        for stanza in stanzas {
            text.append(Data(("-> " + stanza.arguments.joined(separator: " ") + "\n").utf8))
            let body = UnpaddedBase64.encode(stanza.body)
            var start = body.startIndex
            // Full lines of 64 columns, then a last line shorter than 64 (empty when needed).
            while true {
                let end = body.index(start, offsetBy: columns, limitedBy: body.endIndex) ?? body.endIndex
                text.append(Data((body[start..<end] + "\n").utf8))
                if body.distance(from: start, to: end) < columns { break }
                start = end
            }
        }
        text.append(Data("---".utf8))
        return text
    }

    /// The header at the start of `file`.
    init(parsing file: Data) throws(AgeError) {
        var reader = LineReader(file)
        guard let first = reader.next() else { throw .notAnAgeFile }
        guard first == Self.versionLine.dropLast() else {
            let prefix = Data("age-encryption.org/".utf8)
            if first.starts(with: prefix) {
                throw .unsupportedVersion(String(decoding: first.dropFirst(prefix.count), as: UTF8.self))
            }
            throw .notAnAgeFile
        }
        var stanzas: [Stanza] = []
        while true {
            let number = reader.lineNumber + 1
            guard let line = reader.next() else { throw .truncated }
            if line.starts(with: Data("-> ".utf8)) {
                stanzas.append(try Self.stanza(arguments: line.dropFirst(3), line: number, reader: &reader))
            } else if line.starts(with: Data("---".utf8)) {
                guard !stanzas.isEmpty, line.count == 4 + 43, line[line.startIndex + 3] == UInt8(ascii: " "),
                      let mac = UnpaddedBase64.decode(String(decoding: line.dropFirst(4), as: UTF8.self)), mac.count == 32
                else { throw .malformedHeader(line: number) }
                self.stanzas = stanzas
                self.mac = mac
                authenticatedBytes = file[file.startIndex..<(line.startIndex + 3)]
                payloadOffset = reader.offset
                return
            } else {
                throw .malformedHeader(line: number)
            }
        }
    }

    private static func stanza(arguments text: Data, line: Int, reader: inout LineReader) throws(AgeError) -> Stanza {
        let arguments = text.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard !arguments.isEmpty, arguments.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (33...126).contains($0) } }) else {
            throw .malformedHeader(line: line)
        }
        var body = ""
        while true {
            let number = reader.lineNumber + 1
            guard let bodyLine = reader.next() else { throw .truncated }
            guard bodyLine.count <= columns, bodyLine.allSatisfy(UnpaddedBase64.isAlphabet) else { throw .malformedHeader(line: number) }
            body += String(decoding: bodyLine, as: UTF8.self)
            if bodyLine.count < columns { break }
        }
        guard let decoded = UnpaddedBase64.decode(body) else { throw .malformedHeader(line: line) }
        return Stanza(arguments: arguments.map { String(decoding: $0, as: UTF8.self) }, body: decoded, line: line)
    }
}

/// Lines ending in LF, read from the start of a file whose rest may be binary.
private struct LineReader {
    private let data: Data
    private(set) var offset: Int
    private(set) var lineNumber = 0

    init(_ data: Data) {
        self.data = data
        offset = data.startIndex
    }

    /// The next line without its LF, or nil when no LF ends it.
    mutating func next() -> Data? {
        guard let end = data[offset...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = data[offset..<end]
        offset = end + 1
        lineNumber += 1
        return line
    }
}
