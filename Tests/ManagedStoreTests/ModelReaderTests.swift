import Foundation
import ManagedStore
import Testing
import TestSupport

@Suite("Reading Xcode model files")
struct ModelReaderTests {
    @Test("reads every version of the real UnCloudNotes .xcdatamodeld and its current version",
          SharedFixtures.required)
    func readsRealVersionedModel() throws {
        let model = try ModelFileReader.read(at: SharedFixtures.xcodeUnCloudNotesModel)
        #expect(model.name == "UnCloudNotesDataModel")
        #expect(model.versions.map(\.name) == ["UnCloudNotesDataModel", "UnCloudNotesDataModel v2",
                                               "UnCloudNotesDataModel v3", "UnCloudNotesDataModel v4"])
        #expect(model.current.name == "UnCloudNotesDataModel v4")

        let v4 = model.current
        #expect(v4.entities.map(\.name) == ["Attachment", "ImageAttachment", "Note"])
        #expect(v4.entity(named: "ImageAttachment")?.parentName == "Attachment")
        #expect(v4.allAttributes(of: "ImageAttachment").map(\.name)
            == ["dateCreated", "caption", "height", "image", "width"])
        let attachments = try #require(v4.entity(named: "Note")?.relationships.first)
        #expect(attachments.isToMany && attachments.isOptional && attachments.maxCount == 0)
        #expect(attachments.deleteRule == .nullify)
        #expect(v4.inverse(of: attachments)?.name == "note")
        let width = try #require(v4.entity(named: "ImageAttachment")?.attributes.first { $0.name == "width" })
        #expect(width.type == .float && width.defaultValue == .double(0) && !width.isOptional)
    }

    @Test("reads a single .xcdatamodel as a one-version model", SharedFixtures.required)
    func readsSingleVersion() throws {
        let url = SharedFixtures.xcodeUnCloudNotesModel.appendingPathComponent("UnCloudNotesDataModel v2.xcdatamodel")
        let model = try ModelFileReader.read(at: url)
        #expect(model.versions.count == 1)
        #expect(model.current.name == "UnCloudNotesDataModel v2")
        let image = try #require(model.current.entity(named: "Note")?.attributes.first { $0.name == "image" })
        #expect(image.type == .transformable && image.valueTransformerName == "ImageTransformer" && image.isOptional)
    }

    @Test("reads every attribute type, its flags and its default value")
    func readsEveryAttributeType() throws {
        let folder = try TemporaryFolder()
        let url = try ModelFiles.writeVersion("Everything", entities: """
            <entity name="Thing" representedClassName="Thing" elementID="OldThing" versionHashModifier="t1">
                <attribute name="i16" attributeType="Integer 16" defaultValueString="-7"/>
                <attribute name="i32" attributeType="Integer 32" defaultValueString="70000"/>
                <attribute name="i64" optional="YES" attributeType="Integer 64" defaultValueString="5000000000"/>
                <attribute name="dec" attributeType="Decimal" defaultValueString="1.25"/>
                <attribute name="dbl" attributeType="Double" defaultValueString="2.5"/>
                <attribute name="flt" attributeType="Float" defaultValueString="0.0"/>
                <attribute name="str" attributeType="String" defaultValueString="hello" indexed="YES"/>
                <attribute name="flag" attributeType="Boolean" defaultValueString="YES"/>
                <attribute name="when" attributeType="Date" defaultDateTimeInterval="86400"/>
                <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES" preserveAfterDeletion="YES"/>
                <attribute name="id" attributeType="UUID" defaultValueString="E621E1F8-C36C-495A-93FC-0C247A3E6E5F"/>
                <attribute name="link" optional="YES" attributeType="URI" defaultValueString="https://example.org/a"/>
                <attribute name="pic" optional="YES" attributeType="Transformable" valueTransformerName="ImageTransformer" customClassName="UIImage"/>
                <attribute name="ref" optional="YES" attributeType="Object ID"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="String" elementID="oldScratch"/>
                <userInfo><entry key="purpose" value="tests"/></userInfo>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="str"/><constraint value="i16"/></uniquenessConstraint>
                </uniquenessConstraints>
                <fetchIndex name="byStr"><fetchIndexElement property="str" type="Binary" order="descending"/></fetchIndex>
            </entity>
            """, in: folder.url)
        let model = try ModelFileReader.read(at: url).current
        let thing = try #require(model.entity(named: "Thing"))
        #expect(thing.renamingIdentifier == "OldThing" && thing.versionHashModifier == "t1")
        #expect(thing.userInfo == ["purpose": "tests"])
        #expect(thing.uniquenessConstraints == [["str", "i16"]])
        #expect(thing.fetchIndexes == [FetchIndexDescription(name: "byStr",
                                                             elements: [.init(property: "str", isAscending: false)])])
        let byName = Dictionary(uniqueKeysWithValues: thing.attributes.map { ($0.name, $0) })
        #expect(Set(thing.attributes.map(\.type)) == Set(AttributeType.allCases))
        #expect(byName["i16"]?.defaultValue == .integer(-7))
        #expect(byName["i32"]?.defaultValue == .integer(70000))
        #expect(byName["i64"]?.defaultValue == .integer(5_000_000_000) && byName["i64"]?.isOptional == true)
        #expect(byName["dec"]?.defaultValue == .decimal(Decimal(string: "1.25")!))
        #expect(byName["dbl"]?.defaultValue == .double(2.5))
        #expect(byName["str"]?.defaultValue == .string("hello") && byName["str"]?.isIndexed == true)
        #expect(byName["flag"]?.defaultValue == .bool(true))
        #expect(byName["when"]?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 86400)))
        #expect(byName["blob"]?.allowsExternalBinaryDataStorage == true)
        #expect(byName["blob"]?.preservesValueAfterDeletion == true)
        #expect(byName["id"]?.defaultValue == .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
        #expect(byName["link"]?.defaultValue == .uri(URL(string: "https://example.org/a")!))
        #expect(byName["pic"]?.valueTransformerName == "ImageTransformer" && byName["pic"]?.customClassName == "UIImage")
        #expect(byName["scratch"]?.isTransient == true && byName["scratch"]?.renamingIdentifier == "oldScratch")
    }

    @Test("reads relationships of every kind and abstract parent entities")
    func readsRelationshipsAndInheritance() throws {
        let folder = try TemporaryFolder()
        let url = try ModelFiles.writeVersion("Shapes", entities: """
            <entity name="Shape" isAbstract="YES">
                <relationship name="canvas" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Canvas" inverseName="shapes" inverseEntity="Canvas"/>
            </entity>
            <entity name="Circle" parentEntity="Shape">
                <attribute name="radius" attributeType="Double"/>
            </entity>
            <entity name="Canvas">
                <relationship name="shapes" toMany="YES" ordered="YES" minCount="1" maxCount="5" deletionRule="Cascade" destinationEntity="Shape" inverseName="canvas" inverseEntity="Shape"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Tag" inverseName="canvases" inverseEntity="Tag"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Tag"/>
            </entity>
            <entity name="Tag">
                <relationship name="canvases" optional="YES" toMany="YES" destinationEntity="Canvas" inverseName="tags" inverseEntity="Canvas"/>
            </entity>
            """, in: folder.url)
        let model = try ModelFileReader.read(at: url).current
        #expect(model.entity(named: "Shape")?.isAbstract == true)
        #expect(model.rootEntity(of: "Circle")?.name == "Shape")
        #expect(model.subentities(of: "Shape").map(\.name) == ["Circle"])
        #expect(model.entity("Circle", isKindOf: "Shape") && !model.entity("Shape", isKindOf: "Circle"))
        #expect(model.allRelationships(of: "Circle").map(\.name) == ["canvas"])

        let canvas = try #require(model.entity(named: "Canvas"))
        let shapes = canvas.relationships[0], tags = canvas.relationships[1], owner = canvas.relationships[2]
        #expect(shapes.isToMany && shapes.isOrdered && !shapes.isOptional)
        #expect(shapes.minCount == 1 && shapes.maxCount == 5 && shapes.deleteRule == .cascade)
        #expect(tags.deleteRule == .deny && tags.maxCount == 0)
        #expect(owner.deleteRule == .noAction && !owner.isToMany && owner.maxCount == 1 && owner.inverseName == nil)
        #expect(model.entity(named: "Tag")?.relationships[0].deleteRule == .nullify)
    }

    @Test("skips elements that carry no storage: diagram positions, fetch requests, configurations, unknown ones")
    func skipsUnknownElements() throws {
        let folder = try TemporaryFolder()
        let url = try ModelFiles.writeVersion("Extras", entities: """
            <entity name="Item">
                <attribute name="name" attributeType="String"/>
                <fetchedProperty name="siblings" optional="YES"><fetchRequest name="f" entity="Item"/></fetchedProperty>
                <somethingFromANewerXcode flavour="sweet"><nested/></somethingFromANewerXcode>
            </entity>
            <fetchRequest name="AllItems" entity="Item"/>
            <configuration name="Cloud"><memberEntity name="Item"/></configuration>
            <elements><element name="Item" positionX="1" positionY="2" width="128" height="44"/></elements>
            """, in: folder.url)
        let model = try ModelFileReader.read(at: url).current
        #expect(model.entities.map(\.name) == ["Item"])
        #expect(model.entity(named: "Item")?.ownPropertyNames == ["name"])
    }

    @Test("orders versions naturally and takes the current one from .xccurrentversion")
    func ordersVersionsNaturally() throws {
        let folder = try TemporaryFolder()
        let bundle = folder.url.appendingPathComponent("M.xcdatamodeld")
        for name in ["M v10", "M", "M v2"] {
            try ModelFiles.writeVersion(name, entities: "<entity name=\"E\"/>", in: bundle)
        }
        try folder.write(ModelFiles.currentVersion("M v2"), to: "M.xcdatamodeld/.xccurrentversion")
        let model = try ModelFileReader.read(at: bundle)
        #expect(model.versions.map(\.name) == ["M", "M v2", "M v10"])
        #expect(model.current.name == "M v2")
    }
}
