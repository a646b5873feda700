import Foundation
import Testing
import TestSupport

/// One tag typed in two Unicode forms (NFC `é`, NFD `e` + U+0301) is one tag, stored composed,
/// on each machine and after sync: the app's rule and sync's are one (`TagName`).
@Suite("Tags in two Unicode forms")
struct SyncTagFormsTests {
    @Test("café typed composed on one machine and decomposed on another is one tag, in NFC, on both; a round with no change sends nothing")
    func oneTagInNFC() throws {
        let machines = try SyncMachines()
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        try machines.must("alpha", ["notes", "add", "--title", "Alpha's", "--body", "a\n", "--tag", composed])
        try machines.must("alpha", ["notes", "add", "--title", "Alpha's other", "--body", "b\n", "--tag", decomposed])
        try machines.must("beta", ["notes", "add", "--title", "Beta's", "--body", "c\n", "--tag", decomposed])
        try machines.converge(["alpha", "beta"])
        for machine in ["alpha", "beta"] {
            let tags = try machines.must(machine, ["notes", "tags"]).standardOutput
            #expect(Array(tags.utf8) == Array("\(composed)\t3\n".utf8), "\(machine): \(tags.debugDescription)")
        }
        try machines.expectSame("alpha", "beta")
        let quiet = try machines.sync("beta")
        #expect(quiet.standardOutput.hasPrefix("sent nothing; received nothing"), "\(quiet.standardOutput)")
    }
}
