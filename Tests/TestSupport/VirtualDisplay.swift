import Foundation

/// An X server without a screen (Xvfb) with one xterm on it, for tests that look at what a real
/// terminal draws: the window is read back as pixels (`xwd`, converted by ImageMagick) and keys are
/// typed into it (`xdotool`). Both end when this is released.
public final class VirtualDisplay {
    /// A screenshot: RGB pixels, row by row.
    public struct Screenshot {
        public let width: Int
        public let height: Int
        public let pixels: [UInt8]

        public func rgb(x: Int, y: Int) -> (red: Int, green: Int, blue: Int) {
            let offset = (y * width + x) * 3
            return (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
        }
    }

    public let display: String
    private let folder: TemporaryFolder
    private var pids: [String] = []

    /// Starts Xvfb, then `xterm` with `arguments` (its own options, then `-e` and the command).
    public init(xtermArguments arguments: [String], environment: [String: String] = [:]) throws {
        for tool in ["Xvfb", "xterm", "xwd", "convert", "xdotool"] where !Self.isInstalled(tool) {
            throw SpawnedProcess.SpawnError(description: "\(tool) is not installed (make test installs it: scripts/install-deps.sh)")
        }
        folder = try TemporaryFolder()
        let displayFile = folder.url.appendingPathComponent("display")
        let server = try Self.background("Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>'\(displayFile.path)'", name: "xvfb", in: folder)
        let deadline = Date().addingTimeInterval(20)
        var number = ""
        while number.isEmpty {
            guard Date() < deadline else {
                _ = try? SpawnedProcess.run(["kill", server])
                throw SpawnedProcess.SpawnError(description: "Xvfb did not start")
            }
            number = ((try? String(contentsOf: displayFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if number.isEmpty { usleep(20_000) }
        }
        display = ":" + number
        let variables = environment.merging(["DISPLAY": display]) { $1 }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        pids = [server, try Self.background("env \(variables) xterm " + arguments.map { "'\($0)'" }.joined(separator: " "), name: "xterm", in: folder)]
    }

    deinit {
        for pid in pids.reversed() { _ = try? SpawnedProcess.run(["kill", pid]) }
    }

    /// The whole screen now (the xterm sits at its top left corner).
    public func screenshot() throws -> Screenshot {
        let ppm = folder.url.appendingPathComponent("shot.ppm")
        let status = try SpawnedProcess.run(["sh", "-c", "xwd -root -silent -display '\(display)' | convert xwd:- '\(ppm.path)'"])
        guard status.code == 0, !status.endedBySignal else { throw SpawnedProcess.SpawnError(description: "cannot take a screenshot") }
        return try Self.readPPM(Data(contentsOf: ppm))
    }

    /// Saves the screen's top left `width` x `height` pixels as a PNG (for documentation).
    public func savePNG(to url: URL, width: Int, height: Int) throws {
        _ = try SpawnedProcess.run(["sh", "-c", "xwd -root -silent -display '\(display)' | convert xwd:- -crop \(width)x\(height)+0+0 +repage '\(url.path)'"])
    }

    /// Types a key into the xterm (an X key name: j, k, q, Return), focused first: xterm ignores
    /// keys sent to a window (XSendEvent), so they go through the X server's test extension.
    public func press(_ key: String) throws {
        let status = try SpawnedProcess.run(["sh", "-c", "export DISPLAY='\(display)'; xdotool search --class xterm | head -1 | xargs -I{} xdotool windowfocus --sync {} key \(key)"])
        guard status.code == 0 else { throw SpawnedProcess.SpawnError(description: "xdotool could not type \(key)") }
    }

    /// Takes screenshots until `condition` holds; throws with `what` after `timeout` seconds.
    @discardableResult
    public func waitUntil(_ what: String, timeout: TimeInterval = 20, _ condition: (Screenshot) -> Bool) throws -> Screenshot {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let shot = try screenshot()
            if condition(shot) { return shot }
            guard Date() < deadline else { throw SpawnedProcess.SpawnError(description: "timed out waiting for \(what)") }
            usleep(100_000)
        }
    }

    /// Starts `command` in the background, with a watchdog that ends it if this process dies
    /// first (deinit never runs then).
    private static func background(_ command: String, name: String, in folder: TemporaryFolder) throws -> String {
        let pidFile = folder.url.appendingPathComponent("\(name).pid")
        let watchdog = "while kill -0 \(getpid()) 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 1; done; kill $child 2>/dev/null"
        _ = try SpawnedProcess.run(["sh", "-c", "\(command) >/dev/null 2>&1 & child=$!; echo $child > '\(pidFile.path)'; (\(watchdog)) >/dev/null 2>&1 &"])
        return try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func isInstalled(_ tool: String) -> Bool {
        (try? SpawnedProcess.run(["sh", "-c", "command -v \(tool)"]))?.code == 0
    }

    /// A binary PPM (P6, 8 bits), as ImageMagick writes it (with a comment line naming the source).
    static func readPPM(_ data: Data) throws -> Screenshot {
        var fields: [Int] = []
        var index = data.startIndex + 2
        while fields.count < 3, index < data.endIndex {
            while index < data.endIndex, data[index] == 0x20 || data[index] == 0x0A || data[index] == 0x23 {
                if data[index] == 0x23 { while index < data.endIndex, data[index] != 0x0A { index += 1 } } else { index += 1 }
            }
            var number = 0
            while index < data.endIndex, (0x30...0x39).contains(data[index]) {
                number = number * 10 + Int(data[index] - 0x30)
                index += 1
            }
            fields.append(number)
        }
        index += 1
        guard data.starts(with: Array("P6".utf8)), fields.count == 3, fields[2] == 255,
              data.endIndex - index >= fields[0] * fields[1] * 3 else {
            throw SpawnedProcess.SpawnError(description: "not an 8-bit binary PPM screenshot")
        }
        return Screenshot(width: fields[0], height: fields[1], pixels: Array(data[index..<(index + fields[0] * fields[1] * 3)]))
    }
}
