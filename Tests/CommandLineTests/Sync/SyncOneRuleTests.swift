import Foundation
import Testing
import TestSupport

/// Sync writes received notes by the app's rules (review of issue 39): the same order of a
/// note's images, and the same refusal of a display index past the largest.
@Suite("Sync writes by the app's rules")
struct SyncOneRuleTests {
    private func sql(_ machines: SyncMachines, _ machine: String, _ statement: String) throws {
        let store = machines.folder.url.appendingPathComponent("\(machine).sqlite").path
        #expect(try SpawnedProcess.run(["/usr/bin/sqlite3", store, statement]).code == 0)
    }

    @Test("two images of one instant are in the same order on both machines: notes image N 1 is the same picture")
    func sameImageOrder() throws {
        let machines = try SyncMachines()
        let first = try machines.folder.writeImage(named: "first.png", width: 3, height: 2)
        let second = try machines.folder.writeImage(named: "second.png", width: 7, height: 5)
        try machines.must("alpha", ["notes", "add", "--title", "Pictures", "--body", "p\n"])
        try machines.must("alpha", ["notes", "attach", "1", "--image", first.path])
        try machines.must("alpha", ["notes", "attach", "1", "--image", second.path])
        // One instant for both, and identifiers whose order is the opposite of the rows'.
        try sql(machines, "alpha", "UPDATE ZATTACHMENT SET ZDATECREATED = (SELECT MIN(ZDATECREATED) FROM ZATTACHMENT);"
                + "UPDATE ZATTACHMENT SET ZIDENTIFIER = X'FFFFFFFFFFFF4FFFBFFFFFFFFFFFFFFF' WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZATTACHMENT);"
                + "UPDATE ZATTACHMENT SET ZIDENTIFIER = X'00000000000040008000000000000001' WHERE Z_PK = (SELECT MAX(Z_PK) FROM ZATTACHMENT);")
        try machines.converge(["alpha", "beta"])
        var pictures: [Data] = []
        for machine in ["alpha", "beta"] {
            let output = machines.folder.url.appendingPathComponent("\(machine)-1.png")
            try machines.must(machine, ["notes", "image", try machines.number(of: "Pictures", on: machine), "1", "--output", output.path])
            pictures.append(try Data(contentsOf: output))
        }
        #expect(pictures[0] == pictures[1], "image 1 differs between the machines")
        #expect(pictures[0] == (try Data(contentsOf: first)), "equal dates keep the order the images were stored in")
    }

    @Test("a received note past the largest display index is refused as the app refuses it, not given the same index")
    func displayIndexRefused() throws {
        let machines = try SyncMachines()
        try machines.must("beta", ["notes", "add", "--title", "Last", "--body", "l\n"])
        try sql(machines, "beta", "UPDATE ZNOTE SET ZDISPLAYINDEX = 9223372036854775807")
        let add = try machines.run("beta", ["notes", "add", "--title", "More", "--body", "m\n"])
        #expect(add.exitCode != 0 && add.standardError.contains("the largest possible"), "\(add.standardError)")
        try machines.must("alpha", ["notes", "add", "--title", "From alpha", "--body", "a\n"])
        try machines.must("alpha", ["sync", "--remote", machines.remote, "--machine", "alpha"])
        let sync = try machines.sync("beta")
        #expect(sync.exitCode == 1 && sync.standardError.contains("the largest possible"), "\(sync.standardError)")
        #expect(sync.standardError.split(separator: "\n").count == 1)
    }
}
