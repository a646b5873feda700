/// How previews draw images, as `--images` or the config file's `images` key ask: `auto` lets
/// `GraphicsDetection` pick the best the terminal has.
public enum ImageMode: String, CaseIterable, Sendable {
    case auto, kitty, sixel, iterm2, symbols, none
}

/// A terminal graphics protocol that draws real pixels into a rectangle of cells.
public enum PixelProtocol: String, Sendable, Hashable {
    case kitty, sixel, iterm2
}

/// A size in pixels.
public struct PixelSize: Equatable, Hashable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// How the previews of this run are drawn: the choice `GraphicsDetection` made for the terminal.
public struct PreviewGraphics: Equatable, Hashable, Sendable {
    public enum Kind: Equatable, Hashable, Sendable {
        /// Real pixels through a graphics protocol.
        case pixels(PixelProtocol)
        /// libchafa's block symbols in the terminal's colours (the fallback).
        case symbols
        /// No previews at all, only the image's caption line.
        case none
    }

    public var kind: Kind
    /// The size of one cell in pixels: pictures are encoded at their rectangle's exact size.
    public var cellPixels: PixelSize
    /// Inside tmux with `allow-passthrough` on: every sequence is wrapped for tmux to pass on, and
    /// placed at the pane's offset in the outer terminal.
    public var passthrough: TmuxPane?

    public init(kind: Kind, cellPixels: PixelSize = PreviewGraphics.typicalCell, passthrough: TmuxPane? = nil) {
        self.kind = kind
        self.cellPixels = cellPixels
        self.passthrough = passthrough
    }

    /// Sixel and iTerm2 pictures are pixels in the terminal's cells, which move with them (kitty's
    /// are placed above the text).
    public var drawsPixelsInCells: Bool {
        if case .pixels(let kind) = kind { return kind != .kitty }
        return false
    }

    /// Symbol previews, as the app drew them before pixels: the default.
    public static let symbols = PreviewGraphics(kind: .symbols)

    /// A cell size for when the terminal tells none (a common 10x20).
    public static let typicalCell = PixelSize(width: 10, height: 20)
}

/// Where the app's tmux pane sits in the outer terminal, in cells.
public struct TmuxPane: Equatable, Hashable, Sendable {
    public var top: Int
    public var left: Int

    public init(top: Int, left: Int) {
        self.top = top
        self.left = left
    }
}
