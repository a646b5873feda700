import Foundation
import Testing
import TestSupport

/// The tests' own children (`SpawnedProcess`, `ScriptedTerminal`) get standard input, output and
/// error only: a descriptor another test of the same process holds open (a pipe's write end, a
/// lock) never lives on in a child, where it would keep a pipe from ending or a lock held.
@Suite("The tests' children inherit no descriptors")
struct TestChildrenTests {
    @Test("a descriptor the test process has open without close-on-exec is not open in the child")
    func noInheritedDescriptors() throws {
        let folder = try TemporaryFolder()
        let marker = folder.url.appendingPathComponent("held-open")
        // Opened as much code opens files: without O_CLOEXEC.
        let held = open(marker.path, O_WRONLY | O_CREAT, 0o600)
        try #require(held >= 3)
        defer { close(held) }
        let listing = folder.url.appendingPathComponent("descriptors.txt")
        // The descriptor that read the folder for the glob is closed by the time it is read: `|| true`.
        let status = try SpawnedProcess.run(["sh", "-c", "for f in /proc/$$/fd/*; do readlink \"$f\" || true; done"],
                                            standardOutput: listing.path)
        #expect(status.code == 0 && !status.endedBySignal)
        let inChild = try String(contentsOf: listing, encoding: .utf8)
        #expect(inChild.contains(listing.path), "the child's standard output is listed: \(inChild)")
        #expect(!inChild.contains(marker.path), "the child holds the test's descriptor: \(inChild)")
    }
}
