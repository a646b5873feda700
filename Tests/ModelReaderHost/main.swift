import Foundation
import ManagedStore

// The reader fuzz tests' child process: reads many model or mapping files in one process.
//
// Usage: model-reader-host [--models MODEL.xcdatamodeld] PATH...
//
// Before each file it prints `reading N`, and after it `read N` or `refused N: error`, each line
// written at once, so when a file makes the process die by a signal, the last `reading` line
// names that file. It lives with the tests, not in the shipped program.

/// Writes a line to standard output now (no buffer to lose in a crash); a failed write ends the run.
func report(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
        guard written > 0 else { exit(2) }
        offset += written
    }
}

/// Reads one file as `uncloudnotes model show` would, its report rendered too (fuzzed with the reader).
func read(_ url: URL, versions: VersionedModel?) throws {
    if url.pathExtension == "xcmappingmodel" {
        guard let versions else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "a mapping model needs --models"]) }
        _ = try MappingModelReader.read(at: url, models: versions)
    } else {
        let report = ModelReport(model: try ModelFileReader.read(at: url), source: url.path)
        _ = try report.jsonData()
        _ = report.text
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
var versions: VersionedModel?
if arguments.first == "--models", arguments.count >= 2 {
    do {
        versions = try ModelFileReader.read(at: URL(fileURLWithPath: arguments[1]))
    } catch {
        report("cannot read --models: \(error)")
        exit(1)
    }
    arguments.removeFirst(2)
}
for (index, path) in arguments.enumerated() {
    report("reading \(index)")
    do {
        try read(URL(fileURLWithPath: path), versions: versions)
        report("read \(index)")
    } catch {
        report("refused \(index): \(String(describing: error).split(separator: "\n").joined(separator: " "))")
    }
}
