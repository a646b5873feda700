import AgeEncryption
import Foundation
import Testing

/// Keys as age writes them: Bech32, one case, checked.
@Suite("age keys read and write as age-keygen's")
struct AgeKeyTests {
    @Test("the specification's example identity gives its example recipient")
    func specificationExample() throws {
        let identities = try AgeIdentity.read(identityFile: "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX\n")
        #expect(identities.map(\.recipient.description) == ["age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj"])
        #expect(identities.first?.secretKeyLine == "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX")
    }

    @Test("an identity file round-trips, comments and blank lines ignored")
    func identityFileRoundTrip() throws {
        let identity = AgeIdentity()
        let file = identity.identityFile(created: Date(timeIntervalSince1970: 0))
        #expect(file.hasPrefix("# created: 1970-01-01T00:00:00Z\n# public key: age1"))
        let read = try AgeIdentity.read(identityFile: "\n" + file + "\n# trailing comment\n")
        #expect(read.map(\.recipient) == [identity.recipient])
    }

    @Test("a recipient reads back from its text, and the text is kept as written", arguments: [
        "age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj",
        "  age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj ",
    ])
    func recipientReads(text: String) throws {
        #expect(try AgeRecipient(text).description == "age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj")
    }

    @Test("what is not a recipient is refused, naming it", arguments: [
        "age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwk", // checksum
        "age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnuJwj", // mixed case
        "age1qqqqqqqqqqqqqqqqqqqqqqqqqqqq", // too short
        "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX", // a secret, not a recipient
        "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", // Bech32 of another kind
        "", "age1",
    ])
    func badRecipient(text: String) {
        #expect(throws: AgeError.malformedRecipient(text.trimmingCharacters(in: .whitespaces))) { try AgeRecipient(text) }
    }

    @Test("a bad secret key names its line and never repeats it")
    func badIdentity() {
        let secret = "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEY"
        #expect(throws: AgeError.malformedIdentity(line: 2)) { try AgeIdentity.read(identityFile: "# a comment\n\(secret)\n") }
        #expect(!AgeError.malformedIdentity(line: 2).description.contains("GFPYYSJZ"))
        let lower = "age-secret-key-1gfpyysjzgfpyysjzgfpyysjzgfpyysjzgfpyysjzgfpyysjzgfpq4egaex"
        #expect(throws: AgeError.malformedIdentity(line: 1)) { try AgeIdentity.read(identityFile: lower) }
        #expect(throws: AgeError.malformedIdentity(line: 1)) { try AgeIdentity.read(identityFile: "# only comments\n") }
    }
}
