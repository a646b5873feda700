/// Keeps a terminal's late answers to `TerminalQueries` out of the keys: a terminal that answers
/// after the wait (a slow link, a loaded machine) sends its replies when ncurses already reads
/// keys, and `ESC [ ? 62 ; 4 c` would arrive as Escape, `[`, `?` (help), `6`, … Keys pass through
/// as they come; an Escape is held with what follows until that is either a reply (dropped) or
/// not (handed on unchanged). Once device attributes, the last answer, came, nothing more is due.
/// Pure, so every sequence is tested without a terminal.
struct LateReplyFilter {
    private var held: [Key] = []
    /// Device attributes came: every earlier answer came before it.
    private(set) var isDone = false

    /// Whether an Escape and what followed are held: the reader then waits a moment for the rest
    /// (a reply comes in one piece), and calls `release` when nothing more came.
    var isHolding: Bool { !held.isEmpty }

    /// The keys to hand on now that `key` came (none while a sequence may still be a reply).
    mutating func accept(_ key: Key) -> [Key] {
        guard !held.isEmpty else {
            guard key == .escape else { return [key] }
            held = [key]
            return []
        }
        held.append(key)
        switch Self.classify(held) {
        case .incomplete:
            return []
        case .reply(let isDeviceAttributes):
            held = []
            if isDeviceAttributes { isDone = true }
            return []
        case .keys:
            // The Escape was a key; what followed is looked at afresh (it may start a reply).
            let keys = held
            held = []
            return [keys[0]] + keys.dropFirst().flatMap { accept($0) }
        }
    }

    /// Hands on what is held: nothing more came, so it was keys.
    mutating func release() -> [Key] {
        defer { held = [] }
        return held
    }

    private enum Shape: Equatable {
        case incomplete
        case reply(isDeviceAttributes: Bool)
        case keys
    }

    /// What `keys` (an Escape first) are: `CSI ? … c` (device attributes), `CSI 6 ; h ; w t`
    /// (the cell size), `APC G … ST` (the kitty query's answer), the start of one of them, or keys.
    private static func classify(_ keys: [Key]) -> Shape {
        guard keys.count <= 256 else { return .keys }
        var text = ""
        for key in keys.dropFirst() {
            switch key {
            case .character(let character) where character.isASCII: text.append(character)
            // Only the kitty answer's terminator holds an Escape.
            case .escape where text.hasPrefix("_G"): text.append("\u{1B}")
            default: return .keys
            }
        }
        if text.hasPrefix("_G") || text == "_" {
            return text.hasSuffix("\u{1B}\\") ? .reply(isDeviceAttributes: false) : .incomplete
        }
        guard text.hasPrefix("[") else { return text.isEmpty ? .incomplete : .keys }
        let body = text.dropFirst()
        if body.isEmpty { return .incomplete }
        if body.first == "?" {
            let parameters = body.dropFirst()
            if parameters.allSatisfy({ $0.isNumber || $0 == ";" }) { return .incomplete }
            return parameters.dropLast().allSatisfy({ $0.isNumber || $0 == ";" }) && parameters.last == "c" ? .reply(isDeviceAttributes: true) : .keys
        }
        if body.first == "6" {
            if body.allSatisfy({ $0.isNumber || $0 == ";" }) { return .incomplete }
            return body.dropLast().allSatisfy({ $0.isNumber || $0 == ";" }) && body.last == "t" ? .reply(isDeviceAttributes: false) : .keys
        }
        return .keys
    }
}
