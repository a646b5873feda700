import Foundation
import ManagedStore
import Testing
import TestSupport

@Suite("Core Data version hashes")
struct VersionHashTests {
    @Test("hashes equal those Core Data wrote into a real store, with its digest and checksum",
          SharedFixtures.required)
    func matchRealStore() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(SharedFixtures.url("coredata-samplemodel3/SampleModel3_V1.sqlite"))
        let metadata = try StoreMetadata.read(storeAt: store)
        let models = try ModelFileReader.read(at: SharedFixtures.url("coredata-samplemodel3/SampleModel3.xcdatamodeld"))
        let v1 = try #require(models.version(named: "SampleModel3"))

        #expect(metadata.versionHashes == v1.entityVersionHashes)
        #expect(metadata.versionHashesDigest == v1.versionHashesDigest)
        #expect(metadata.versionChecksum == v1.versionChecksum)
        #expect(metadata.isCompatible(with: v1))
        #expect(metadata.versionIdentifiers == [v1.versionIdentifier])
        for later in models.versions where later.name != v1.name {
            #expect(!metadata.isCompatible(with: later), "\(later.name) must not open a v1 store")
        }
        #expect(metadata.mismatchedEntities(for: try #require(models.version(named: "SampleModel3_v2")))
            == ["Pet", "User"])
    }

    /// Hashes of the entity `E` built from the given attribute XML.
    private func hash(of entityXML: String, entity: String = "E") throws -> Data {
        let folder = try TemporaryFolder()
        let url = try ModelFiles.writeVersion("H", entities: entityXML, in: folder.url)
        return try #require(ModelFileReader.read(at: url).current.entityVersionHashes[entity])
    }

    @Test("what Core Data hashes changes the hash")
    func hashedFacts() throws {
        let base = try hash(of: #"<entity name="E"><attribute name="a" attributeType="String"/></entity>"#)
        let variants = [
            #"<entity name="E"><attribute name="b" attributeType="String"/></entity>"#,
            #"<entity name="E"><attribute name="a" optional="YES" attributeType="String"/></entity>"#,
            #"<entity name="E"><attribute name="a" attributeType="Integer 64"/></entity>"#,
            #"<entity name="E"><attribute name="a" attributeType="String" versionHashModifier="m"/></entity>"#,
            #"<entity name="E" versionHashModifier="m"><attribute name="a" attributeType="String"/></entity>"#,
            #"<entity name="E" isAbstract="YES"><attribute name="a" attributeType="String"/></entity>"#,
            #"<entity name="E"><attribute name="a" attributeType="String"/><uniquenessConstraints><uniquenessConstraint><constraint value="a"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
        ]
        for variant in variants {
            #expect(try hash(of: variant) != base, "\(variant)")
        }
        let binary = try hash(of: #"<entity name="E"><attribute name="a" attributeType="Binary"/></entity>"#)
        let external = try hash(of: #"<entity name="E"><attribute name="a" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/></entity>"#)
        #expect(binary != external)
    }

    @Test("what Core Data does not hash leaves the hash alone")
    func unhashedFacts() throws {
        let base = try hash(of: #"<entity name="E"><attribute name="a" attributeType="String"/></entity>"#)
        let variants = [
            #"<entity name="E" representedClassName="Other" elementID="old"><attribute name="a" attributeType="String" elementID="x" defaultValueString="d" indexed="YES"/></entity>"#,
            #"<entity name="E"><attribute name="a" attributeType="String"/><attribute name="t" optional="YES" transient="YES" attributeType="String"/></entity>"#,
            #"<entity name="E"><attribute name="a" attributeType="String"/><userInfo><entry key="k" value="v"/></userInfo><fetchIndex name="i"><fetchIndexElement property="a"/></fetchIndex></entity>"#,
        ]
        for variant in variants {
            #expect(try hash(of: variant) == base, "\(variant)")
        }
    }

    @Test("relationships hash their destination, inverse, counts and ordering, not the delete rule")
    func relationshipHashes() throws {
        func model(_ relationship: String) -> String {
            #"<entity name="E">\#(relationship)</entity><entity name="F"><relationship name="e" optional="YES" maxCount="1" destinationEntity="E" inverseName="f"/></entity>"#
        }
        let base = try hash(of: model(#"<relationship name="f" optional="YES" toMany="YES" destinationEntity="F" inverseName="e"/>"#))
        #expect(try hash(of: model(#"<relationship name="f" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="F" inverseName="e"/>"#)) == base)
        #expect(try hash(of: model(#"<relationship name="f" optional="YES" toMany="YES" ordered="YES" destinationEntity="F" inverseName="e"/>"#)) != base)
        #expect(try hash(of: model(#"<relationship name="f" optional="YES" toMany="YES" maxCount="3" destinationEntity="F" inverseName="e"/>"#)) != base)
        #expect(try hash(of: model(#"<relationship name="f" optional="YES" toMany="YES" minCount="1" destinationEntity="F" inverseName="e"/>"#)) != base)
        #expect(try hash(of: model(#"<relationship name="f" optional="YES" maxCount="1" destinationEntity="F" inverseName="e"/>"#)) != base)
    }

    @Test("a sub-entity's hash depends on its parent")
    func subEntityDependsOnParent() throws {
        let child = #"<entity name="C" parentEntity="P"><attribute name="c" attributeType="String"/></entity>"#
        let first = try hash(of: #"<entity name="P"><attribute name="p" attributeType="String"/></entity>"# + child, entity: "C")
        let second = try hash(of: #"<entity name="P"><attribute name="p" attributeType="Date"/></entity>"# + child, entity: "C")
        #expect(first != second)
    }

    @Test("derived attributes hash their derivation as Core Data prints it (SampleModel2's Book, GraphicNovel)",
          SharedFixtures.required)
    func derivedAttributesMatchRealStore() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(SharedFixtures.url("coredataplus-samplemodel2/SampleModel2_V1.sqlite"))
        let metadata = try StoreMetadata.read(storeAt: store)
        let models = try ModelFileReader.read(at: SharedFixtures.url("coredataplus-samplemodel2/SampleModel2.xcdatamodeld"))
        let v1 = try #require(models.version(named: "SampleModel2V1"))
        for entity in ["Book", "GraphicNovel", "Feedback", "Page", "Writer"] {
            #expect(metadata.versionHashes[entity] == v1.entityVersionHashes[entity], "\(entity)")
        }
    }

    @Test("counts hash by their low 32 bits, as Core Data's C int does: Author's unbounded Int.max matches",
          SharedFixtures.required)
    func countsAboveUInt32MatchRealStore() throws {
        let original = SharedFixtures.url("coredataplus-samplemodel2/SampleModel2.xcdatamodeld/SampleModel2V1.xcdatamodel/contents")
        let text = try String(contentsOf: original, encoding: .utf8)
        // CoreDataPlus builds Author.books in code with a maximum count of Int.max.
        let unbounded = text.replacingOccurrences(
            of: #"<relationship name="books" optional="YES" toMany="YES""#,
            with: #"<relationship name="books" optional="YES" toMany="YES" maxCount="\#(Int.max)""#)
        #expect(unbounded != text)
        let folder = try TemporaryFolder()
        let version = try folder.write(unbounded, to: "SampleModel2V1.xcdatamodel/contents").deletingLastPathComponent()
        let model = try ModelFileReader.read(at: version).current
        let store = try folder.copy(SharedFixtures.url("coredataplus-samplemodel2/SampleModel2_V1.sqlite"))
        let metadata = try StoreMetadata.read(storeAt: store)
        #expect(metadata.isCompatible(with: model))
        #expect(metadata.mismatchedEntities(for: model).isEmpty)
    }

    @Test("a count of 2^32 or more hashes instead of trapping")
    func hugeCountsHash() throws {
        func model(maxCount: String) -> String {
            #"<entity name="E"><relationship name="f" optional="YES" toMany="YES" maxCount="\#(maxCount)" destinationEntity="E"/></entity>"#
        }
        #expect(try hash(of: model(maxCount: "4294967296")) == hash(of: model(maxCount: "0")))
        #expect(try hash(of: model(maxCount: "4294967297")) == hash(of: model(maxCount: "1")))
    }
}
