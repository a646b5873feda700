import CTerminal

/// What colours the terminal can show, and how true colours are brought down to them.
public struct ColorSupport: Sendable {
    public enum Depth: Sendable {
        /// `NO_COLOR` is set, or the terminal has no colours: symbols and attributes only.
        case none
        case sixteen
        case indexed256
        /// The terminal takes 24-bit colours directly (ncurses direct-colour terminals).
        case direct
    }

    public let depth: Depth

    public init(colorCount: Int, environment: [String: String]) {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            depth = .none
        } else if colorCount >= 1 << 24 {
            depth = .direct
        } else if colorCount >= 256 {
            depth = .indexed256
        } else if colorCount >= 8 {
            depth = .sixteen
        } else {
            depth = .none
        }
    }

    public init(depth: Depth) {
        self.depth = depth
    }

    /// The colour number to give ncurses, -1 for the terminal's default; nil without colours.
    func number(for color: TerminalColor?) -> Int? {
        guard depth != .none else { return nil }
        guard let color else { return -1 }
        switch (color, depth) {
        case (.palette(let index), .sixteen): return index < 16 ? index % 8 : Self.nearest16(Self.rgb(ofPalette: index))
        // Direct-colour terminfo reads numbers below 8 as the basic palette and all others as RGB.
        case (.palette(let index), .direct) where index >= 8: return Self.direct(Self.rgb(ofPalette: index))
        case (.palette(let index), _): return index
        case (.rgb(let r, let g, let b), .direct): return Self.direct((r, g, b))
        case (.rgb(let r, let g, let b), .indexed256): return Self.nearest256(r, g, b)
        case (.rgb(let r, let g, let b), _): return Self.nearest16((r, g, b))
        }
    }

    /// An RGB colour as a direct-colour number; the few below 8 (near black) are moved to 8, as
    /// they would be read as palette entries.
    static func direct(_ color: (UInt8, UInt8, UInt8)) -> Int {
        max(8, Int(color.0) << 16 | Int(color.1) << 8 | Int(color.2))
    }

    /// The xterm 256-colour cube and grey ramp.
    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        func level(_ value: UInt8) -> Int { value < 48 ? 0 : value < 115 ? 1 : (Int(value) - 35) / 40 }
        let cube = 16 + 36 * level(r) + 6 * level(g) + level(b)
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let grey = average > 238 ? 255 : 232 + max(0, (average - 3) / 10)
        let cubeRGB = rgb(ofPalette: cube), greyRGB = rgb(ofPalette: grey)
        return distance(cubeRGB, (r, g, b)) <= distance(greyRGB, (r, g, b)) ? cube : grey
    }

    static func nearest16(_ color: (UInt8, UInt8, UInt8)) -> Int {
        (0..<8).min { distance(rgb(ofPalette: $0), color) < distance(rgb(ofPalette: $1), color) } ?? 7
    }

    static func rgb(ofPalette index: Int) -> (UInt8, UInt8, UInt8) {
        let basic: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
                                              (0, 205, 205), (229, 229, 229)]
        switch index {
        case 0..<8: return basic[index]
        case 8..<16: let (r, g, b) = basic[index - 8]; return (UInt8(min(255, Int(r) + 50)), UInt8(min(255, Int(g) + 50)), UInt8(min(255, Int(b) + 50)))
        case 16..<232:
            let value = index - 16
            let steps: [UInt8] = [0, 95, 135, 175, 215, 255]
            return (steps[value / 36], steps[(value / 6) % 6], steps[value % 6])
        default:
            let grey = UInt8(min(255, 8 + 10 * (index - 232)))
            return (grey, grey, grey)
        }
    }

    private static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        let dr = Int(a.0) - Int(b.0), dg = Int(a.1) - Int(b.1), db = Int(a.2) - Int(b.2)
        return dr * dr + dg * dg + db * db
    }
}

/// ncurses colour pairs, defined as cells need them and reused.
struct ColorPairs {
    let support: ColorSupport
    let maxPairs: Int
    private var pairs: [[Int]: Int] = [:]

    init(support: ColorSupport, maxPairs: Int) {
        self.support = support
        self.maxPairs = maxPairs
    }

    /// The pair for a foreground and background; 0 (default colours) when colours are off or
    /// the terminal has no pairs left.
    mutating func pair(foreground: TerminalColor?, background: TerminalColor?) -> Int {
        guard foreground != nil || background != nil,
              let fg = support.number(for: foreground), let bg = support.number(for: background) else { return 0 }
        if let known = pairs[[fg, bg]] { return known }
        let next = pairs.count + 1
        guard next < maxPairs, cterminal_define_pair(Int32(next), Int32(fg), Int32(bg)) == 0 else { return 0 }
        pairs[[fg, bg]] = next
        return next
    }
}
