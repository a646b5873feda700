import Foundation
import Testing
import TestSupport

/// Finding 6: sync finishes while other programs keep writing the store. Two writers edit and
/// add notes in a loop until the syncs are done (a stop file ends them, so they overlap every
/// sync); each sync receives another machine's notes and must succeed.
@Suite("Sync beside other writers")
struct SyncBesideWritersTests {
    @Test("three syncs in a row succeed while two processes keep editing and adding notes; nothing either made is lost")
    func syncsBesideWriters() throws {
        let machines = try SyncMachines()
        for title in ["Busy one", "Busy two"] { try machines.must("alpha", ["notes", "add", "--title", title, "--body", "0\n"]) }
        try machines.converge(["alpha", "beta"])
        let stop = machines.folder.url.appendingPathComponent("stop")
        let program = BuiltExecutable.url.path
        let writers = try ["Busy one", "Busy two"].enumerated().map { index, title in
            let number = try machines.number(of: title, on: "alpha")
            let store = machines.store("alpha").joined(separator: " ")
            // Bounded: at most 400 rounds, whatever happens to the stop file.
            let script = """
                i=0
                while [ ! -e '\(stop.path)' ] && [ $i -lt 400 ]; do
                  i=$((i+1))
                  '\(program)' notes edit \(number) --body "edit $i" \(store) >/dev/null || exit 1
                  if [ $((i % 5)) = 0 ]; then '\(program)' notes add --title "writer \(index) note $i" --body x \(store) >/dev/null || exit 1; fi
                done
                echo $i
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        var results: [BuiltExecutable.Result] = []
        for round in 0..<3 {
            try machines.must("beta", ["notes", "add", "--title", "From beta \(round)", "--body", "b\n"])
            try machines.must("beta", ["sync", "--remote", machines.remote, "--machine", "beta"])
            results.append(try machines.sync("alpha"))
        }
        let stillWriting = writers.allSatisfy(\.isRunning)
        #expect(FileManager.default.createFile(atPath: stop.path, contents: Data()))
        for writer in writers { writer.waitUntilExit() }
        #expect(stillWriting, "the writers ended before the syncs did: nothing was tested beside them")
        #expect(writers.allSatisfy { $0.terminationStatus == 0 }, "a writer's command failed")
        for (round, result) in results.enumerated() {
            #expect(result.exitCode == 0, "sync \(round) beside writers: \(result.standardError)")
        }
        let titles = try machines.titles("alpha")
        #expect(titles.isSuperset(of: ["From beta 0", "From beta 1", "From beta 2", "Busy one", "Busy two"]), "\(titles)")
        try machines.converge(["alpha", "beta"])
        try machines.expectSame("alpha", "beta")
    }
}
