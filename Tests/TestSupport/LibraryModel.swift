import Foundation
import ManagedStore

/// A small model that exercises every storage rule: an abstract parent with two sub-entities
/// whose properties collide (`weight`), every attribute type, one-to-one, one-to-many (ordered,
/// cascade), many-to-many, a to-one into a hierarchy, Deny, a uniqueness constraint, an indexed
/// attribute and a fetch index.
public enum LibraryModel {
    public static let entities = """
        <entity name="Shelf">
            <attribute name="name" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="shelf" inverseEntity="Item"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="shelves" inverseEntity="Owner"/>
        </entity>
        <entity name="Item" isAbstract="YES">
            <attribute name="title" attributeType="String" indexed="YES"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="items" inverseEntity="Shelf"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
        </entity>
        <entity name="Book" parentEntity="Item">
            <attribute name="pages" attributeType="Integer 32" defaultValueString="0"/>
            <attribute name="weight" optional="YES" attributeType="Integer 16"/>
        </entity>
        <entity name="Tool" parentEntity="Item">
            <attribute name="weight" optional="YES" attributeType="Double"/>
        </entity>
        <entity name="Tag">
            <attribute name="name" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
            <relationship name="holder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="badge" inverseEntity="Owner"/>
            <relationship name="featured" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Item"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Owner">
            <attribute name="name" attributeType="String"/>
            <relationship name="shelves" optional="YES" toMany="YES" maxCount="3" deletionRule="Deny" destinationEntity="Shelf" inverseName="owner" inverseEntity="Shelf"/>
            <relationship name="badge" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag" inverseName="holder" inverseEntity="Tag"/>
            <fetchIndex name="byName"><fetchIndexElement property="name" type="Binary" order="ascending"/></fetchIndex>
        </entity>
        <entity name="Sample">
            <attribute name="i16" optional="YES" attributeType="Integer 16"/>
            <attribute name="i32" optional="YES" attributeType="Integer 32"/>
            <attribute name="i64" optional="YES" attributeType="Integer 64"/>
            <attribute name="decimal" optional="YES" attributeType="Decimal"/>
            <attribute name="double" optional="YES" attributeType="Double"/>
            <attribute name="float" optional="YES" attributeType="Float"/>
            <attribute name="string" optional="YES" attributeType="String"/>
            <attribute name="flag" optional="YES" attributeType="Boolean"/>
            <attribute name="date" optional="YES" attributeType="Date"/>
            <attribute name="binary" optional="YES" attributeType="Binary"/>
            <attribute name="uuid" optional="YES" attributeType="UUID"/>
            <attribute name="uri" optional="YES" attributeType="URI"/>
            <attribute name="blob" optional="YES" attributeType="Transformable" valueTransformerName="ReversedBytes"/>
            <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
        </entity>
        """

    /// The model, written to a temporary folder and read back through the Xcode file reader.
    public static func load() throws -> ManagedObjectModel {
        let folder = try TemporaryFolder()
        let url = try ModelFiles.writeVersion("Library", entities: entities, in: folder.url)
        return try ModelFileReader.read(at: url).current
    }

    /// A new store of the model in the folder.
    public static func createStore(in folder: TemporaryFolder, name: String = "Library.sqlite",
                                   options: StoreOptions = StoreOptions()) throws -> PersistentStore {
        try PersistentStore.create(at: folder.url.appendingPathComponent(name), model: load(), options: options)
    }
}
