import Foundation
import Testing
import TestSupport

/// `uncloudnotes sync --encrypt` and `sync recipients`, run as a new user runs them from the
/// README: the key made in `$XDG_CONFIG_HOME`, the second machine told its key in one line.
@Suite("uncloudnotes sync --encrypt and sync recipients")
struct SyncEncryptCommandTests {
    let machines: SyncMachines

    init() throws {
        machines = try SyncMachines()
    }

    /// Each machine's own settings folder, as two computers have.
    private func home(_ machine: String) -> [String: String] {
        ["XDG_CONFIG_HOME": machines.folder.url.appendingPathComponent("\(machine)-config").path]
    }

    @Test("the first machine encrypts, the second is told its key in one line, add lets it in, both then hold the same notes")
    func twoMachines() throws {
        try machines.must("alpha", ["notes", "add", "--title", "Secret", "--body", "hidden text"])
        let first = try machines.run("alpha", ["sync", "--remote", machines.remote, "--encrypt"], environment: home("alpha"))
        #expect(first.exitCode == 0, "\(first.standardError)")
        let key = machines.folder.url.appendingPathComponent("alpha-config/uncloudnotes/age-identity.txt")
        let attributes = try FileManager.default.attributesOfItem(atPath: key.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOf: key, encoding: .utf8).contains("AGE-SECRET-KEY-1"))

        try machines.must("beta", ["notes", "add", "--title", "Beta's own", "--body", "b"])
        let refused = try machines.run("beta", ["sync", "--remote", machines.remote], environment: home("beta"))
        #expect(refused.exitCode != 0 && !refused.endedBySignal)
        let line = refused.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!line.contains("\n"), "one line: \(line)")
        let betaKey = try #require(line.split(separator: " ").first { $0.hasPrefix("age1") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "`,")) })
        #expect(line.contains("uncloudnotes sync recipients add \(betaKey)"))

        let added = try machines.run("alpha", ["sync", "recipients", "add", betaKey], environment: home("alpha"))
        #expect(added.exitCode == 0, "\(added.standardError)")
        let listed = try machines.run("alpha", ["sync", "recipients", "list"], environment: home("alpha"))
        #expect(listed.standardOutput.split(separator: "\n").count == 2)
        #expect(listed.standardOutput.contains("\(betaKey)\n") && listed.standardOutput.contains("(this machine)"))
        #expect(try machines.run("beta", ["sync"], environment: home("beta")).exitCode == 0)
        #expect(try machines.run("alpha", ["sync"], environment: home("alpha")).exitCode == 0)
        #expect(try machines.titles("beta") == ["Secret", "Beta's own"])
        #expect(try machines.canonicalNotes("beta") == machines.canonicalNotes("alpha"))
    }

    @Test("bad keys and recipients on a plain mirror get one clear line and a non-zero exit")
    func refusals() throws {
        try machines.must("alpha", ["notes", "add", "--title", "Plain", "--body", "p"])
        #expect(try machines.run("alpha", ["sync", "--remote", machines.remote], environment: home("alpha")).exitCode == 0)
        let plain = try machines.run("alpha", ["sync", "recipients", "list"], environment: home("alpha"))
        #expect(plain.exitCode != 0 && plain.standardError.contains("not encrypted") && plain.standardError.contains("--encrypt"))
        #expect(try machines.run("alpha", ["sync", "--encrypt"], environment: home("alpha")).exitCode == 0)
        let bogus = try machines.run("alpha", ["sync", "recipients", "add", "age1notakey"], environment: home("alpha"))
        #expect(bogus.exitCode != 0 && bogus.standardError.contains("age1notakey is not an age recipient"))
        let broken = machines.folder.url.appendingPathComponent("broken-key.txt")
        try "AGE-SECRET-KEY-1NOTREALLY\n".write(to: broken, atomically: true, encoding: .utf8)
        let badIdentity = try machines.run("alpha", ["sync", "--identity", broken.path], environment: home("alpha"))
        #expect(badIdentity.exitCode != 0 && badIdentity.standardError.contains(broken.path), "\(badIdentity.standardError)")
        #expect(!badIdentity.standardError.contains("NOTREALLY"), "a secret key line is never repeated")
        // A mistyped --identity makes no new key (nor its folder): only the default one is made.
        let typo = machines.folder.url.appendingPathComponent("typo-folder/key.txt")
        let missing = try machines.run("alpha", ["sync", "--identity", typo.path], environment: home("alpha"))
        #expect(missing.exitCode != 0 && missing.standardError.contains("is not there"), "\(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: typo.deletingLastPathComponent().path))
        // A secret key given where a recipient belongs is refused without being printed.
        let secret = "AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQS3290GG"
        let pasted = try machines.run("alpha", ["sync", "recipients", "add", secret], environment: home("alpha"))
        #expect(pasted.exitCode != 0 && pasted.standardError.contains("secret key") && !pasted.standardError.contains(secret), "\(pasted.standardError)")
    }

    /// Found by a new user's trial: `recipients add KEY --dry-run` changed the recipients, a
    /// machine not let in yet was told to turn encryption on, a fresh remote was warned of its
    /// plain history, a sync with nothing to send said "pushed", and re-encryption was "sent".
    @Test("--dry-run changes no recipient; a machine not let in is told its key; reports say what happened, no more")
    func reportsSayWhatHappened() throws {
        try machines.must("alpha", ["notes", "add", "--title", "Secret", "--body", "hidden text"])
        let first = try machines.run("alpha", ["sync", "--remote", machines.remote, "--encrypt"], environment: home("alpha"))
        #expect(first.exitCode == 0 && first.standardOutput.contains(", pushed"), "\(first.standardError)")
        #expect(!first.standardOutput.contains("plain text"), "a new, empty remote has no plain history: \(first.standardOutput)")
        let again = try machines.run("alpha", ["sync"], environment: home("alpha"))
        #expect(again.exitCode == 0 && again.standardOutput.contains("mirror at") && !again.standardOutput.contains("pushed"), "\(again.standardOutput)")

        try machines.must("beta", ["notes", "add", "--title", "Beta's own", "--body", "b"])
        let noMirror = try machines.run("beta", ["sync", "recipients", "list"], environment: home("beta"))
        #expect(noMirror.exitCode != 0 && noMirror.standardError.contains("no mirror") && noMirror.standardError.contains("--remote"),
                "\(noMirror.standardError)")
        #expect(try machines.run("beta", ["sync", "--remote", machines.remote], environment: home("beta")).exitCode != 0)
        let notIn = try machines.run("beta", ["sync", "recipients", "list"], environment: home("beta"))
        #expect(notIn.exitCode != 0 && notIn.standardError.contains("uncloudnotes sync recipients add age1") && !notIn.standardError.contains("--encrypt"),
                "\(notIn.standardError)")
        let betaKey = try #require(notIn.standardError.split(separator: " ").first { $0.hasPrefix("age1") }
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "`,")) })

        let remoteBefore = try machines.remoteHead()
        let planned = try machines.run("alpha", ["sync", "recipients", "add", betaKey, "--dry-run"], environment: home("alpha"))
        #expect(planned.exitCode == 0 && planned.standardOutput.contains("would encrypt") && planned.standardOutput.contains("2 recipients, adding \(betaKey)"),
                "\(planned.standardOutput) \(planned.standardError)")
        #expect(try machines.remoteHead() == remoteBefore)
        #expect(try machines.run("alpha", ["sync", "recipients", "list"], environment: home("alpha")).standardOutput.split(separator: "\n").count == 1)

        let added = try machines.run("alpha", ["sync", "recipients", "add", betaKey, "--json"], environment: home("alpha"))
        #expect(added.exitCode == 0, "\(added.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(added.standardOutput.utf8)) as? [String: Any])
        let sent = try #require(report["sent"] as? [String: Int])
        #expect(sent["changed"] == 0 && report["reencrypted"] as? Int == 1, "an unchanged note encrypted again is not sent: \(report)")
        let removal = try machines.run("alpha", ["sync", "recipients", "remove", betaKey, "--dry-run"], environment: home("alpha"))
        #expect(removal.exitCode == 0 && removal.standardOutput.contains("removing \(betaKey)"), "\(removal.standardOutput)")
        #expect(try machines.run("alpha", ["sync", "recipients", "list"], environment: home("alpha")).standardOutput.contains(betaKey))
    }

    /// Found by a new user's trial: with the default key file gone, sync made a new key without
    /// a word, and was then refused as a stranger.
    @Test("the default key this machine encrypted with, gone, is a lost key: one line saying how to restore it, and no new key made")
    func lostKey() throws {
        try machines.must("alpha", ["notes", "add", "--title", "Secret", "--body", "hidden"])
        #expect(try machines.run("alpha", ["sync", "--remote", machines.remote, "--encrypt"], environment: home("alpha")).exitCode == 0)
        let key = machines.folder.url.appendingPathComponent("alpha-config/uncloudnotes/age-identity.txt")
        try FileManager.default.moveItem(at: key, to: machines.folder.url.appendingPathComponent("backup-key.txt"))
        let lost = try machines.run("alpha", ["sync"], environment: home("alpha"))
        #expect(lost.exitCode == 1 && lost.standardError.contains("is gone") && lost.standardError.contains("restore"), "\(lost.standardError)")
        #expect(!FileManager.default.fileExists(atPath: key.path), "no new key stands in for the lost one")
        try FileManager.default.moveItem(at: machines.folder.url.appendingPathComponent("backup-key.txt"), to: key)
        #expect(try machines.run("alpha", ["sync"], environment: home("alpha")).exitCode == 0)
    }
}

