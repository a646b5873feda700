import Foundation
import ManagedStore
import Testing
import TestSupport

/// Builds archives of expressions laid out as Foundation archives NSExpression: a key path is an
/// NSKeyPathExpression (a function `valueForKey(Path):` on its operand) with a key path specifier.
private struct Expressions {
    let builder = KeyedArchiveBuilder()

    func variable(_ name: String) -> KeyedArchiveBuilder.Value {
        builder.object("NSVariableExpression", superclasses: ["NSExpression", "NSObject"],
                       ["NSExpressionType": .integer(2), "NSVariable": builder.add(.string(name))])
    }

    func constant(_ value: KeyedArchiveBuilder.Value) -> KeyedArchiveBuilder.Value {
        builder.object("NSConstantValueExpression", superclasses: ["NSExpression", "NSObject"],
                       ["NSExpressionType": .integer(0), "NSConstantValue": builder.add(value)])
    }

    func evaluatedObject() -> KeyedArchiveBuilder.Value {
        builder.object("NSSelfExpression", superclasses: ["NSExpression", "NSObject"], ["NSExpressionType": .integer(1)])
    }

    func function(_ operand: KeyedArchiveBuilder.Value, _ selector: String, _ arguments: [KeyedArchiveBuilder.Value],
                  className: String = "NSFunctionExpression", type: Int = 4) -> KeyedArchiveBuilder.Value {
        builder.object(className, superclasses: ["NSFunctionExpression", "NSExpression", "NSObject"], [
            "NSExpressionType": .integer(type), "NSOperand": operand,
            "NSSelectorName": builder.add(.string(selector)), "NSArguments": builder.array(arguments),
        ])
    }

    func keyPath(_ operand: KeyedArchiveBuilder.Value, _ path: String) -> KeyedArchiveBuilder.Value {
        let specifier = builder.object("NSKeyPathSpecifierExpression", superclasses: ["NSExpression", "NSObject"],
                                       ["NSExpressionType": .integer(10), "NSKeyPath": builder.add(.string(path))])
        return function(operand, path.contains(".") ? "valueForKeyPath:" : "valueForKey:", [specifier],
                        className: "NSKeyPathExpression", type: 3)
    }

    func archive(_ root: KeyedArchiveBuilder.Value) -> Data {
        builder.archive(root: root)
    }
}

@Suite("Reading Xcode mapping models")
struct MappingModelReaderTests {
    private static let noteVersions = (
        #"<entity name="Note"><attribute name="title" attributeType="String"/><relationship name="note" optional="YES" maxCount="1" destinationEntity="Note"/></entity>"#,
        #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="shout" optional="YES" attributeType="String"/><relationship name="note" optional="YES" maxCount="1" destinationEntity="Note"/></entity>"#)

    /// A versioned model with two versions (by default of one entity), and a mapping model file
    /// between them whose entity mappings are the objects `entityMappingIDs`.
    private func write(mappingObjects: String, entityMappingIDs: String = "z2", versions: (String, String) = MappingModelReaderTests.noteVersions,
                       in folder: TemporaryFolder) throws -> (URL, VersionedModel) {
        let bundle = folder.url.appendingPathComponent("M.xcdatamodeld")
        try ModelFiles.writeVersion("M", entities: versions.0, in: bundle)
        try ModelFiles.writeVersion("M v2", entities: versions.1, in: bundle)
        try folder.write(ModelFiles.currentVersion("M v2"), to: "M.xcdatamodeld/.xccurrentversion")
        let url = try folder.write("""
            <?xml version="1.0" standalone="yes"?>
            <database>
                <databaseInfo><version>134481920</version></databaseInfo>
                <object type="XDDEVMAPPINGMODEL" id="z1">
                    <attribute name="sourcemodelpath" type="string">App/M.xcdatamodeld/M.xcdatamodel</attribute>
                    <attribute name="destinationmodelpath" type="string">App/M.xcdatamodeld/M v2.xcdatamodel</attribute>
                    <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="\(entityMappingIDs)"></relationship>
                </object>
                \(mappingObjects)
            </database>
            """, to: "Test.xcmappingmodel/xcmapping.xml")
        return (url.deletingLastPathComponent(), try ModelFileReader.read(at: bundle))
    }

    private func entityMapping(id: String = "z2", entity: String = "Note", number: Int = 1, attributes: String = "z3",
                               relationships: String = "", userInfo: String = "") -> String {
        """
        <object type="XDDEVENTITYMAPPING" id="\(id)">
            <attribute name="sourcename" type="string">\(entity)</attribute>
            <attribute name="destinationname" type="string">\(entity)</attribute>
            <attribute name="mappingnumber" type="int16">\(number)</attribute>
            \(userInfo.isEmpty ? "" : "<attribute name=\"userinfodata\" type=\"binary\">\(userInfo)</attribute>")
            <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="\(attributes)"></relationship>
            <relationship name="relationshipmappings" type="0/0" destination="XDDEVRELATIONSHIPMAPPING" idrefs="\(relationships)"></relationship>
        </object>
        """
    }

    private func attributeMapping(_ id: String, _ name: String, archived: Data? = nil) -> String {
        let expression = archived.map { "<attribute name=\"valueexpressiondata\" type=\"binary\">\($0.base64EncodedString())</attribute>" } ?? ""
        return "<object type=\"XDDEVATTRIBUTEMAPPING\" id=\"\(id)\"><attribute name=\"name\" type=\"string\">\(name)</attribute>\(expression)</object>"
    }

    @Test("archived custom expressions decode: key paths on variables, constants, functions")
    func archivedExpressions() throws {
        let folder = try TemporaryFolder()
        var e = Expressions()
        let shout = e.archive(e.function(e.variable("entityPolicy"), "uppercase:", [e.keyPath(e.variable("source"), "title")]))
        e = Expressions()
        let title = e.archive(e.keyPath(e.variable("source"), "note.title"))
        e = Expressions()
        let note = e.archive(e.function(e.variable("manager"), MigrationSelectors.destinationInstances,
                                        [e.constant(.string("NoteToNote")), e.variable("source")]))
        let info = try NSKeyedArchiver.archivedData(withRootObject: NSDictionary(dictionary: ["purpose": "test"]),
                                                    requiringSecureCoding: false)
        let (url, models) = try write(mappingObjects: entityMapping(attributes: "z3 z4", relationships: "z5", userInfo: info.base64EncodedString())
            + attributeMapping("z3", "shout", archived: shout) + attributeMapping("z4", "title", archived: title)
            + "<object type=\"XDDEVRELATIONSHIPMAPPING\" id=\"z5\"><attribute name=\"name\" type=\"string\">note</attribute><attribute name=\"valueexpressiondata\" type=\"binary\">\(note.base64EncodedString())</attribute></object>",
            in: folder)
        let mapping = try MappingModelReader.read(at: url, models: models)
        let entity = try #require(mapping.entityMappings.first)
        #expect(entity.userInfo == ["purpose": "test"])
        #expect(entity.attributeMappings == [
            PropertyMapping(name: "shout", valueExpression: .function(target: .variable("entityPolicy"), selector: "uppercase:",
                                                                      arguments: [.source("title")])),
            PropertyMapping(name: "title", valueExpression: .source("note", "title")),
        ])
        #expect(entity.relationshipMappings == [
            PropertyMapping(name: "note", valueExpression: .destinationInstances(mapping: "NoteToNote", sourceInstances: .variable("source"))),
        ])
        #expect(mapping.maps(from: try #require(models.version(named: "M")), to: models.current))
    }

    @Test("SELF key paths and constants of every plist kind decode")
    func otherArchivedKinds() throws {
        #expect(try decode { $0.keyPath($0.evaluatedObject(), "title") } == .keyPath(base: nil, components: ["title"]))
        #expect(try decode { $0.constant(.integer(42)) } == .constant(.integer(42)))
        #expect(try decode { $0.constant(.real(2.5)) } == .constant(.double(2.5)))
        #expect(try decode { $0.constant(.string("hi")) } == .constant(.string("hi")))
        #expect(try decode { $0.evaluatedObject() } == .evaluatedObject)
        #expect(try decode { $0.keyPath($0.keyPath($0.variable("source"), "note"), "body") } == .source("note", "body"))
    }

    /// Decodes an archive through a mapping model file, the only public way in.
    private func decode(_ build: (Expressions) -> KeyedArchiveBuilder.Value) throws -> ValueExpression? {
        let folder = try TemporaryFolder()
        let expressions = Expressions()
        let archive = expressions.archive(build(expressions))
        let (url, models) = try write(mappingObjects: entityMapping() + attributeMapping("z3", "title", archived: archive), in: folder)
        return try MappingModelReader.read(at: url, models: models).entityMappings.first?.attributeMappings.first?.valueExpression
    }

    @Test("broken archives and files give errors naming the file, never a crash", arguments: [
        Data("not a plist at all, but long enough to have a trailer........".utf8),
        Data("bplist00".utf8) + Data(repeating: 0xFF, count: 40),
        Data(base64Encoded: "YnBsaXN0MDDUAQIDBAUGBwpYJHZlcnNpb25ZJGFyY2hpdmVy")!,
    ])
    func brokenArchives(data: Data) throws {
        let folder = try TemporaryFolder()
        let (url, models) = try write(mappingObjects: entityMapping() + attributeMapping("z3", "title", archived: data), in: folder)
        let error = try #require(throws: ModelError.self) { try MappingModelReader.read(at: url, models: models) }
        #expect(error.property == "title")
        guard case .undecodableExpression = error.reason else {
            Issue.record("expected an undecodable expression, got \(error)")
            return
        }
    }

    @Test("a mapping model naming a version the model does not have is refused")
    func unknownVersion() throws {
        let folder = try TemporaryFolder()
        let (url, _) = try write(mappingObjects: entityMapping() + attributeMapping("z3", "title"), in: folder)
        let other = try ModelFileReader.read(at: try ModelFiles.writeVersion("Other", entities: "<entity name=\"X\"/>", in: folder.url))
        let error = try #require(throws: ModelError.self) { try MappingModelReader.read(at: url, models: other) }
        #expect(error.reason == .unknownVersion(key: "sourcemodelpath", version: "M", model: "Other"))
    }

    @Test("without expression data, attributes copy $source.<name> when the source has it")
    func generatedExpressions() throws {
        let folder = try TemporaryFolder()
        let (url, models) = try write(mappingObjects: entityMapping(attributes: "z3 z4", relationships: "z5")
            + attributeMapping("z3", "title") + attributeMapping("z4", "shout")
            + "<object type=\"XDDEVRELATIONSHIPMAPPING\" id=\"z5\"><attribute name=\"name\" type=\"string\">note</attribute><attribute name=\"autogenerateexpression\" type=\"bool\">1</attribute></object>",
            in: folder)
        let entity = try #require(try MappingModelReader.read(at: url, models: models).entityMappings.first)
        #expect(entity.attributeMappings == [PropertyMapping(name: "shout", valueExpression: nil),
                                             PropertyMapping(name: "title", valueExpression: .source("title"))])
        #expect(entity.relationshipMappings == [PropertyMapping(name: "note", valueExpression: .destinationInstances(mapping: "NoteToNote", sourceInstances: .source("note")))])
    }

    @Test("the real Xcode mapping models of the chapter load", SharedFixtures.required)
    func realXcodeFiles() throws {
        let models = try ModelFileReader.read(at: SharedFixtures.xcodeUnCloudNotesModel)
        let mappings = try MappingModelReader.readAll(in: SharedFixtures.url("xcode-uncloudnotes"), models: models)
        #expect(mappings.map(\.name) == ["UnCloudNotesMappingModel_v2_to_v3", "UnCloudNotesMappingModel_v3_to_v4"])
        #expect(mappings[1].entityMappings.count == 2)
    }
    @Test("an autogenerated relationship mapping whose source entity lacks the relationship has no expression")
    func generatedRelationshipWithoutSource() throws {
        let folder = try TemporaryFolder()
        let author = #"<entity name="Author"><attribute name="name" optional="YES" attributeType="String"/>BOOKS</entity>"#
        let versions = (#"<entity name="Book"><attribute name="title" attributeType="String"/></entity>"#
                            + author.replacingOccurrences(of: "BOOKS", with: ""),
                        #"<entity name="Book"><attribute name="title" attributeType="String"/><relationship name="authors" optional="YES" toMany="YES" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity>"#
                            + author.replacingOccurrences(of: "BOOKS", with: #"<relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="authors" inverseEntity="Book"/>"#))
        let generated = { (id: String, name: String) in
            "<object type=\"XDDEVRELATIONSHIPMAPPING\" id=\"\(id)\"><attribute name=\"name\" type=\"string\">\(name)</attribute><attribute name=\"autogenerateexpression\" type=\"bool\">1</attribute></object>"
        }
        let (url, models) = try write(mappingObjects: entityMapping(entity: "Book", attributes: "z3", relationships: "z4")
            + entityMapping(id: "z5", entity: "Author", number: 2, attributes: "z6", relationships: "z7")
            + attributeMapping("z3", "title") + attributeMapping("z6", "name") + generated("z4", "authors") + generated("z7", "books"),
            entityMappingIDs: "z2 z5", versions: versions, in: folder)
        let mapping = try MappingModelReader.read(at: url, models: models)
        #expect(mapping.entityMappings.map(\.relationshipMappings) == [[PropertyMapping(name: "authors", valueExpression: nil)],
                                                                       [PropertyMapping(name: "books", valueExpression: nil)]])
        let storeURL = folder.url.appendingPathComponent("b.sqlite")
        let store = try PersistentStore.create(at: storeURL, model: models.versions[0])
        let context = ManagedObjectContext(store: store)
        try context.insertObject(entityName: "Book").setValue(.string("Dune"), forKey: "title")
        try context.save()
        try store.close()
        let destination = folder.url.appendingPathComponent("b2.sqlite")
        try MigrationManager.migrateStore(from: storeURL, sourceModel: models.versions[0], to: destination,
                                          destinationModel: models.current, mappingModel: mapping)
        let copy = ManagedObjectContext(store: try PersistentStore.open(at: destination, model: models.current))
        let books = try copy.fetch(FetchRequest(entityName: "Book"))
        #expect(books.map { $0.value(forKey: "title") } == [.string("Dune")])
        #expect(books.first?.objects(forKey: "authors").isEmpty == true)
    }

    @Test("two mapping models for the same pair of versions is an error naming both files")
    func duplicateMappingModels() throws {
        let folder = try TemporaryFolder()
        let (url, models) = try write(mappingObjects: entityMapping() + attributeMapping("z3", "title"), in: folder)
        try FileManager.default.copyItem(at: url, to: folder.url.appendingPathComponent("Again.xcmappingmodel"))
        let error = try #require(throws: ModelError.self) { try MappingModelReader.readAll(in: folder.url, models: models) }
        #expect(error.reason == .duplicateMappingModels(first: "Again.xcmappingmodel", second: "Test.xcmappingmodel",
                                                        source: "M", destination: "M v2"))
    }

    @Test("a compiled mapping model in the folder is named in an error, never ignored")
    func compiledMappingModel() throws {
        let folder = try TemporaryFolder()
        let (_, models) = try write(mappingObjects: entityMapping() + attributeMapping("z3", "title"), in: folder)
        try folder.write("bplist00", to: "Test.cdm")
        let error = try #require(throws: ModelError.self) { try MappingModelReader.readAll(in: folder.url, models: models) }
        #expect(error.file.hasSuffix("Test.cdm"))
        #expect(error.reason == .compiledMappingModel)
    }

    @Test("a folder of mapping models that does not exist is an error naming it, not an empty list")
    func missingMappingFolder() throws {
        let folder = try TemporaryFolder()
        let (_, models) = try write(mappingObjects: entityMapping() + attributeMapping("z3", "title"), in: folder)
        let missing = folder.url.appendingPathComponent("no-such-folder")
        let error = try #require(throws: ModelError.self) { try MappingModelReader.readAll(in: missing, models: models) }
        #expect(error.file == missing.path)
        #expect(error.reason == .noSuchFolder)
    }

    @Test("a file is refused as not a folder; one .xcmappingmodel given alone is read")
    func fileOrOneMappingModel() throws {
        let folder = try TemporaryFolder()
        let (mappingURL, models) = try write(mappingObjects: entityMapping() + attributeMapping("z3", "title"), in: folder)
        let file = try folder.write("not a folder", to: "notes.txt")
        let error = try #require(throws: ModelError.self) { try MappingModelReader.readAll(in: file, models: models) }
        #expect(error.file == file.path && error.reason == .fileInsteadOfMappingModelFolder)
        #expect(try MappingModelReader.readAll(in: mappingURL, models: models).count == 1)
    }
}
