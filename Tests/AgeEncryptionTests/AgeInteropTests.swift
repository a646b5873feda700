import AgeEncryption
import Foundation
import Testing
import TestSupport

/// Debian's `age` is the reference: it opens what this writes, and this opens what it writes,
/// at the sizes where chunking has edges. (`make test` installs it.)
@Suite("age interoperates with the age command, both ways")
struct AgeInteropTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private func age(_ arguments: [String], input: URL, output: URL) throws -> Int32 {
        let errors = folder.url.appendingPathComponent("age-errors")
        let status = try SpawnedProcess.run(["age"] + arguments, standardInput: input.path, standardOutput: output.path, standardError: errors.path)
        return status.endedBySignal ? -1 : status.code
    }

    private var ageIsInstalled: Bool {
        let found = ((ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")).contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/age")
        }
        if !found { Issue.record("the age command is missing: run scripts/install-deps.sh (make test does)") }
        return found
    }

    @Test("age -d opens what this program encrypted, for a key this program made", arguments: AgeFileTests.sizes)
    func ageOpensOurs(size: Int) throws {
        guard ageIsInstalled else { return }
        let identity = AgeIdentity()
        let keyFile = try folder.write(identity.identityFile(created: Date()), to: "key.txt")
        let plaintext = AgeFileTests.bytes(size, seed: UInt64(size))
        let sealed = folder.url.appendingPathComponent("ours.age")
        try AgeFile.encrypt(plaintext, to: [AgeIdentity().recipient, identity.recipient]).write(to: sealed)
        let opened = folder.url.appendingPathComponent("opened")
        #expect(try age(["-d", "-i", keyFile.path], input: sealed, output: opened) == 0)
        #expect(try Data(contentsOf: opened) == plaintext)
    }

    @Test("this program opens what age -e encrypted, with a key age-keygen made", arguments: AgeFileTests.sizes)
    func weOpenAges(size: Int) throws {
        guard ageIsInstalled else { return }
        let keyFile = folder.url.appendingPathComponent("key.txt")
        let status = try SpawnedProcess.run(["age-keygen", "-o", keyFile.path], standardError: folder.url.appendingPathComponent("keygen").path)
        #expect(status.code == 0 && !status.endedBySignal)
        let identities = try AgeIdentity.read(identityFile: String(contentsOf: keyFile, encoding: .utf8))
        let plaintext = AgeFileTests.bytes(size, seed: UInt64(size) + 7)
        let input = folder.url.appendingPathComponent("plain")
        try plaintext.write(to: input)
        let sealed = folder.url.appendingPathComponent("theirs.age")
        #expect(try age(["-e", "-r", AgeIdentity().recipient.description, "-r", identities[0].recipient.description], input: input, output: sealed) == 0)
        #expect(try AgeFile.decrypt(Data(contentsOf: sealed), with: identities) == plaintext)
        #expect(throws: AgeError.noMatchingIdentity) { try AgeFile.decrypt(Data(contentsOf: sealed), with: [AgeIdentity()]) }
    }

    @Test("age -d refuses what this program refuses: a flipped byte in a chunk")
    func ageRefusesDamage() throws {
        guard ageIsInstalled else { return }
        let identity = AgeIdentity()
        let keyFile = try folder.write(identity.identityFile(created: Date()), to: "key.txt")
        var sealed = try AgeFile.encrypt(AgeFileTests.bytes(1000), to: [identity.recipient])
        sealed[sealed.count - 100] ^= 1
        let file = folder.url.appendingPathComponent("damaged.age")
        try sealed.write(to: file)
        #expect(try age(["-d", "-i", keyFile.path], input: file, output: folder.url.appendingPathComponent("out")) != 0)
        #expect(throws: AgeError.chunkChanged(index: 0)) { try AgeFile.decrypt(sealed, with: [identity]) }
    }
}
