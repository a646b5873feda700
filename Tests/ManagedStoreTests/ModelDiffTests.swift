import Foundation
import ManagedStore
import Testing
import TestSupport

@Suite("model diff: what changes between versions, and how Core Data would migrate it")
struct ModelDiffTests {
    private func model(_ name: String, _ entities: String, in folder: TemporaryFolder) throws -> ManagedObjectModel {
        try ModelFileReader.read(at: try ModelFiles.writeVersion(name, entities: entities, in: folder.url)).current
    }

    @Test("wibosco's four versions: each change named, inferable or not, and the hashes that change", SharedFixtures.required)
    func wibosco() throws {
        let versions = try ModelFileReader.read(at: SharedFixtures.url("wibosco-migration-example/CoreDataMigration_Example.xcdatamodeld")).versions
        let first = ModelDiff(from: versions[0], to: versions[1])
        #expect(first.changes.map(\.description) == ["added optional attribute Post.hexColor", "removed attribute Post.color"])
        #expect(first.changes.map(\.rule) == ["add optional attribute", "remove attribute"])
        #expect(first.hashChanges.map(\.entity) == ["Post"] && first.isInferable)

        let second = ModelDiff(from: versions[1], to: versions[2])
        #expect(second.changes.filter { !$0.isInferable }.map(\.description) == ["relationship Post.color was added as required"])
        #expect(second.changes.filter(\.isInferable).map(\.description) == ["added entity Color", "removed attribute Post.hexColor"])
        #expect(second.hashChanges.map { "\($0.entity) \($0.from == nil ? "new" : "changed")" } == ["Color new", "Post changed"])
        #expect(!second.isInferable)

        let third = ModelDiff(from: versions[2], to: versions[3])
        #expect(third.changes.map(\.description) == ["added optional attribute Post.hide"] && third.isInferable)
        #expect(third.hashChanges.map(\.entity) == ["Post"])
    }

    @Test("renames by renaming identifier, retyping, optionality both ways and a hash modifier")
    func everyKindOfChange() throws {
        let folder = try TemporaryFolder()
        let before = try model("A", """
            <entity name="Item">
                <attribute name="title" attributeType="String"/>
                <attribute name="count" attributeType="Integer 32"/>
                <attribute name="note" attributeType="String"/>
                <attribute name="extra" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Shelf"><attribute name="name" attributeType="String"/></entity>
            """, in: folder)
        let after = try model("B", """
            <entity name="Item">
                <attribute name="heading" attributeType="String" elementID="title"/>
                <attribute name="count" attributeType="String"/>
                <attribute name="note" optional="YES" attributeType="String"/>
                <attribute name="extra" attributeType="String"/>
            </entity>
            <entity name="Shelf" versionHashModifier="2"><attribute name="name" attributeType="String"/></entity>
            """, in: folder)
        let diff = ModelDiff(from: before, to: after)
        let byDescription = Dictionary(uniqueKeysWithValues: diff.changes.map { ($0.description, $0.rule) })
        #expect(byDescription["renamed attribute Item.title to Item.heading"] == "rename attribute (renaming identifier)")
        #expect(byDescription["attribute Item.count changed type from Integer 32 to String"] == .some(nil))
        #expect(byDescription["attribute Item.note became optional"] == "make attribute optional")
        #expect(byDescription["attribute Item.extra became required without a default value"] == .some(nil))
        #expect(diff.changes.count == 4)
        let shelf = try #require(diff.hashChanges.first { $0.entity == "Shelf" })
        #expect(shelf.hashModifier == [nil, "2"])
        #expect(diff.lines.contains("  Shelf: changes (hash modifier none -> 2)"))
        #expect(diff.lines.last == "migration: needs a mapping model (2 change(s) marked ! cannot be inferred)")
    }

    @Test("the same version twice: no differences")
    func sameVersion() throws {
        let folder = try TemporaryFolder()
        let one = try model("A", "<entity name=\"Item\"><attribute name=\"title\" attributeType=\"String\"/></entity>", in: folder)
        let diff = ModelDiff(from: one, to: one)
        #expect(diff.changes.isEmpty && diff.hashChanges.isEmpty && diff.isInferable)
        #expect(diff.lines == ["A -> A", "  no differences: the same version to Core Data"])
    }
}
