import Foundation

/// Asks before the app creates a store at a path the user gave (`--store`): a mistyped path would
/// otherwise leave folders, a store and a lock behind. The default store is created without asking.
enum CreateStoreQuestion {
    static func render(storePath: String, width: Int, height: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        let lines: [(String, CellStyle)] = [
            ("Create a new store at \(storePath)? y/n", .bold), ("", []),
            ("There is no store there yet: y creates it (and its folders), n quits having created nothing.", .dim),
        ]
        var row = 0
        for (text, style) in lines {
            for wrapped in TextWrapper.wrap(Array(text), width: width) where row < height {
                buffer.put(wrapped.text, row: row, column: 0, style: style)
                row += 1
            }
        }
        return buffer
    }

    /// True when the user answers y; n, q, Esc and Ctrl-C say no. Other keys are not answers.
    static func ask(storePath: String, on screen: TerminalScreen) -> Bool {
        while true {
            let size = screen.size
            screen.draw(render(storePath: storePath, width: size.columns, height: size.rows))
            switch screen.readKey() {
            case .character("y")?, .character("Y")?: return true
            case .character("n")?, .character("N")?, .character("q")?, .escape?, .control("c")?: return false
            default: continue
            }
        }
    }
}
