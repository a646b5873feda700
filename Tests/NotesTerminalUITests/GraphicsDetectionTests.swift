import NotesTerminalUI
import Testing

/// Detection as a function of the environment and the terminal's replies, scripted here byte for
/// byte as terminals send them.
@Suite("Graphics detection")
struct GraphicsDetectionTests {
    static let kittyOK = "\u{1B}_Gi=31;OK\u{1B}\\"
    static let cellSize = "\u{1B}[6;20;10t"
    static let xtermSixel = "\u{1B}[?63;1;2;4;6;9;15;16;22;28c"
    static let plainDA = "\u{1B}[?62;22c"

    static func replies(_ text: String) -> TerminalReplies { TerminalReplies(parsing: Array(text.utf8)) }

    @Test("replies are read from the bytes in any order, with keys typed meanwhile ignored")
    func parsing() {
        let all = Self.replies("j" + Self.kittyOK + Self.cellSize + "k" + Self.xtermSixel)
        #expect(all.kittyGraphics)
        #expect(all.cellPixels == PixelSize(width: 10, height: 20))
        #expect(all.sixel)
        #expect(all.isComplete)
        let errorReply = Self.replies("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\" + Self.plainDA)
        #expect(!errorReply.kittyGraphics && !errorReply.sixel && errorReply.isComplete)
        // Without device attributes the answer is still coming (or never will).
        #expect(!Self.replies(Self.kittyOK + Self.cellSize).isComplete)
        #expect(Self.replies("\u{1B}[6;0;0t" + Self.plainDA).cellPixels == nil)
    }

    @Test("auto picks what the terminal confirmed: kitty over sixel, iTerm2 by the environment")
    func automatic() {
        let kitty = GraphicsDetection.decide(.auto, environment: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"],
                                             replies: Self.replies(Self.kittyOK + Self.cellSize + Self.plainDA))
        #expect(kitty.graphics == PreviewGraphics(kind: .pixels(.kitty), cellPixels: PixelSize(width: 10, height: 20)))
        #expect(kitty.notice == nil)
        let xterm = GraphicsDetection.decide(.auto, environment: ["TERM": "xterm"], replies: Self.replies(Self.xtermSixel),
                                             windowCellPixels: PixelSize(width: 6, height: 13))
        #expect(xterm.graphics == PreviewGraphics(kind: .pixels(.sixel), cellPixels: PixelSize(width: 6, height: 13)))
        let wezterm = GraphicsDetection.decide(.auto, environment: ["TERM_PROGRAM": "WezTerm", "WEZTERM_PANE": "0"],
                                               replies: Self.replies(Self.xtermSixel))
        #expect(wezterm.graphics.kind == .pixels(.iterm2))
        let vte = GraphicsDetection.decide(.auto, environment: ["VTE_VERSION": "7006"], replies: Self.replies(Self.plainDA))
        #expect(vte.graphics == .symbols)
        #expect(vte.notice == nil, "a terminal without graphics is no news")
    }

    @Test("the environment alone decides nothing: an unconfirmed kitty, or no answer, is symbols with a reason")
    func unconfirmed() {
        // KITTY_WINDOW_ID inherited by a shell in xterm: xterm answers, but not the kitty query.
        let inherited = GraphicsDetection.decide(.auto, environment: ["KITTY_WINDOW_ID": "3", "TERM": "xterm"],
                                                 replies: Self.replies(Self.plainDA))
        #expect(inherited.graphics == .symbols)
        #expect(inherited.notice?.contains("did not answer the kitty graphics query") == true)
        let silent = GraphicsDetection.decide(.auto, environment: ["TERM": "xterm"], replies: nil)
        #expect(silent.graphics == .symbols)
        #expect(silent.notice?.contains("did not answer") == true)
    }

    @Test("a forced protocol needs no answer; symbols and none ask nothing")
    func forced() {
        let forced = GraphicsDetection.decide(.sixel, environment: ["TERM": "xterm"], replies: nil)
        #expect(forced.graphics == PreviewGraphics(kind: .pixels(.sixel), cellPixels: PreviewGraphics.typicalCell))
        #expect(GraphicsDetection.decide(.none, environment: [:], replies: nil).graphics.kind == .none)
        #expect(GraphicsDetection.decide(.symbols, environment: [:], replies: Self.replies(Self.kittyOK + Self.plainDA)).graphics == .symbols)
        #expect(!GraphicsDetection.needsQueries(.symbols, environment: [:]))
        #expect(GraphicsDetection.needsQueries(.auto, environment: ["TERM": "xterm"]))
        #expect(!GraphicsDetection.needsQueries(.auto, environment: ["TMUX": "/tmp/tmux-0/default,1,0"]))
        // The Linux console is never asked (it would print the kitty query) and draws symbols, quietly.
        #expect(!GraphicsDetection.needsQueries(.auto, environment: ["TERM": "linux"]))
        #expect(GraphicsDetection.decide(.auto, environment: ["TERM": "linux"], replies: nil) == GraphicsDetection.Decision(graphics: .symbols))
    }

    @Test("inside tmux: passthrough when allowed, at the pane's offset; symbols with the reason otherwise")
    func tmux() throws {
        let environment = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color", "KITTY_WINDOW_ID": "1"]
        let facts = try #require(TmuxFacts(displayed: "on|xterm-kitty|256,RGB,title|3|40\n"))
        #expect(facts.pane == TmuxPane(top: 3, left: 40))
        let allowed = GraphicsDetection.decide(.auto, environment: environment, replies: nil, tmux: facts)
        #expect(allowed.graphics == PreviewGraphics(kind: .pixels(.kitty), cellPixels: PreviewGraphics.typicalCell,
                                                    passthrough: TmuxPane(top: 3, left: 40)))
        let off = try #require(TmuxFacts(displayed: "off|xterm-kitty||0|0"))
        let refused = GraphicsDetection.decide(.auto, environment: environment, replies: nil, tmux: off)
        #expect(refused.graphics == .symbols)
        #expect(refused.notice == "images as symbols: tmux's allow-passthrough is off (tmux set -g allow-passthrough on)")
        let sixelClient = try #require(TmuxFacts(displayed: "on|xterm||0|0".replacingOccurrences(of: "||", with: "|sixel,RGB|")))
        #expect(GraphicsDetection.decide(.auto, environment: ["TMUX": "x"], replies: nil, tmux: sixelClient).graphics.kind == .pixels(.sixel))
        #expect(GraphicsDetection.decide(.kitty, environment: ["TMUX": "x"], replies: nil, tmux: nil).notice?.contains("tmux did not say") == true)
        // A session whose terminal draws no pictures (a detached one, a plain xterm) hears nothing about it.
        let plain = try #require(TmuxFacts(displayed: "off|xterm-256color|256,RGB|0|0"))
        #expect(GraphicsDetection.decide(.auto, environment: ["TMUX": "x"], replies: nil, tmux: plain) == GraphicsDetection.Decision(graphics: .symbols))
        #expect(TmuxFacts(displayed: "on|xterm") == nil)
    }
}
