/// What a terminal answered to `TerminalQueries`' questions, parsed from the bytes it sent back:
/// the kitty graphics query's OK, primary device attributes (4 among them: sixel), and the cell
/// size in pixels (`CSI 16 t`). Pure, so detection is tested with scripted replies.
public struct TerminalReplies: Equatable, Sendable {
    /// The kitty graphics query (image id 31) was answered OK.
    public var kittyGraphics = false
    /// The parameters of the primary device attributes reply (`CSI ? 62 ; 4 ; … c`); nil without one.
    public var deviceAttributes: [Int]?
    /// The cell size from the `CSI 6 ; height ; width t` reply.
    public var cellPixels: PixelSize?

    public init(kittyGraphics: Bool = false, deviceAttributes: [Int]? = nil, cellPixels: PixelSize? = nil) {
        self.kittyGraphics = kittyGraphics
        self.deviceAttributes = deviceAttributes
        self.cellPixels = cellPixels
    }

    /// Sixel graphics, as device attributes announce them (attribute 4).
    public var sixel: Bool { deviceAttributes?.contains(4) ?? false }

    /// Every terminal answers device attributes, and answers in order: once that reply is in,
    /// the answers to the questions asked before it are too.
    public var isComplete: Bool { deviceAttributes != nil }

    /// The replies found in `bytes`; anything else in them (keys typed meanwhile) is ignored.
    public init(parsing bytes: [UInt8]) {
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == 0x1B else {
                index += 1
                continue
            }
            switch bytes[index + 1] {
            case UInt8(ascii: "_"): index = readGraphicsReply(bytes, from: index + 2)
            case UInt8(ascii: "["): index = readControlSequence(bytes, from: index + 2)
            default: index += 1
            }
        }
    }

    /// `ESC _ G i=31 ; OK ESC \`: the kitty graphics query's answer.
    private mutating func readGraphicsReply(_ bytes: [UInt8], from start: Int) -> Int {
        var end = start
        while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
        let body = String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
        if body.hasPrefix("G"), body.contains("i=31"), body.hasSuffix(";OK") { kittyGraphics = true }
        return end + 2
    }

    /// `CSI ? 62 ; 4 c` (device attributes) or `CSI 6 ; 20 ; 10 t` (cell size).
    private mutating func readControlSequence(_ bytes: [UInt8], from start: Int) -> Int {
        var end = start
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return end }
        var text = String(decoding: bytes[start..<end], as: UTF8.self)
        let isPrivate = text.hasPrefix("?")
        if isPrivate { text.removeFirst() }
        let numbers = text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        switch bytes[end] {
        case UInt8(ascii: "c") where isPrivate:
            deviceAttributes = numbers
        case UInt8(ascii: "t") where numbers.count == 3 && numbers[0] == 6 && numbers[1] > 0 && numbers[2] > 0:
            cellPixels = PixelSize(width: numbers[2], height: numbers[1])
        default:
            break
        }
        return end + 1
    }
}
