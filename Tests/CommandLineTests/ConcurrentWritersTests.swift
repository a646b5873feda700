import Foundation
import Synchronization
import Testing
import TestSupport

/// Several processes writing one store at once: each waits its turn for SQLite's write lock
/// (busy timeout, IMMEDIATE save transactions) and the first ones race to create the store
/// safely, so none fails with "database is locked" or sees a half-made store.
@Suite("uncloudnotes with concurrent writers")
struct ConcurrentWritersTests {
    @Test("5 processes each adding 10 notes at once to a new store: all 50 are saved")
    func concurrentAdds() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 5) { writer in
            for number in 1...10 {
                do {
                    let result = try BuiltExecutable.run(["--store", store.path, "notes", "add",
                                                          "--title", "writer \(writer) note \(number)", "--body", ""])
                    if result.exitCode != 0 {
                        failures.withLock { $0.append("exit \(result.exitCode): \(result.standardError)") }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let list = try BuiltExecutable.run(["--store", store.path, "notes", "list"])
        let titles = Set(list.standardOutput.split(separator: "\n").compactMap { $0.split(separator: "\t").last.map(String.init) })
        #expect(titles == Set((0..<5).flatMap { writer in (1...10).map { "writer \(writer) note \($0)" } }))
    }
}
