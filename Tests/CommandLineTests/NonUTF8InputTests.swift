import Foundation
import Testing
import TestSupport

/// Text that is not UTF-8 (a Latin-1 byte typed under `LANG=C`, a pipe from a legacy file)
/// becomes U+FFFD, as Swift decodes it; stderr says so once, and the command goes on.
@Suite("input that is not UTF-8")
struct NonUTF8InputTests {
    /// Runs the binary under `LANG=C` through the shell, which puts the raw byte `\351` (Latin-1
    /// `é`) into the title: a Swift string cannot hold it.
    private func addLatin1Title(_ store: URL, extra: String = "") throws -> BuiltExecutable.Result {
        try BuiltExecutable.run(["--store", store.path, "notes", "add", "--body", "b"], environment: ["LANG": "C", "LC_ALL": "C"],
                                launcher: ["/bin/sh", "-c", "exec \"$0\" \"$@\" --title \"$(printf 'caf\\351')\"\(extra)"])
    }

    private func titles(_ store: URL) throws -> [String] {
        try BuiltExecutable.run(["--store", store.path, "notes", "list", "--json"]).standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["title"] as? String ?? ""
        }
    }

    @Test("a Latin-1 byte in --title under LANG=C: stored as U+FFFD, said once on stderr")
    func latin1Argument() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let result = try addLatin1Title(store)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "added note 1\n")
        let notices = result.standardError.split(separator: "\n").filter { $0.contains("not UTF-8") }
        #expect(notices == ["uncloudnotes: replaced 1 byte that is not UTF-8 in the arguments by U+FFFD; going on with that text"])
        #expect(try titles(store) == ["caf\u{FFFD}"])
    }

    @Test("a body piped with bytes that are not UTF-8: each replaced, counted once; UTF-8 input says nothing")
    func pipedBody() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let bad = try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "piped"], environment: ["LANG": "C"],
                                          standardInput: Data([0x61, 0xFF, 0xFE, 0x62, 0x0A]))
        #expect(bad.exitCode == 0, "\(bad.standardError)")
        #expect(bad.standardError.split(separator: "\n").filter { $0.contains("not UTF-8") }
                == ["uncloudnotes: replaced 2 bytes that are not UTF-8 in standard input by U+FFFD; going on with that text"])
        let shown = try BuiltExecutable.run(["--store", store.path, "notes", "show", "1", "--json"]).standardOutput
        #expect(try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])["body"] as? String == "a\u{FFFD}\u{FFFD}b")

        let good = try BuiltExecutable.run(["--store", store.path, "notes", "edit", "1", "--title", "café"],
                                           standardInput: Data("naïve 日本\n".utf8))
        #expect(good.exitCode == 0 && !good.standardError.contains("UTF-8"), "\(good.standardError)")
    }
}
