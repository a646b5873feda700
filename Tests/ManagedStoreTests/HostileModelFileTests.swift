import Foundation
import ManagedStore
import Testing
import TestSupport

/// Damaged or hostile model and mapping files end in a `ModelError`, never a trap.
@Suite("Hostile model and mapping files")
struct HostileModelFileTests {
    @Test("invalid UTF-8 in an element name is refused before FoundationXML sees it, naming the line")
    func invalidUTF8() throws {
        var bytes = Array("<model>\n<ent".utf8)
        bytes += [0xFF, 0xC3]
        bytes += Array("ity name=\"A\"/>\n</model>".utf8)
        let error = try #require(throws: ModelError.self) {
            try XMLTreeReader.read(data: Data(bytes), displayName: "bad.xml")
        }
        #expect(error.line == 2)
        #expect(error.reason == .notUTF8)
    }

    @Test("a declared encoding other than UTF-8 is refused")
    func otherEncoding() throws {
        let text = #"<?xml version="1.0" encoding="ISO-8859-1"?><model/>"#
        let error = try #require(throws: ModelError.self) {
            try XMLTreeReader.read(data: Data(text.utf8), displayName: "latin.xml")
        }
        #expect(error.reason == .unsupportedEncoding("ISO-8859-1"))
    }

    @Test("100,000-deep nesting is refused at the depth limit, in model and mapping files")
    func deepNesting() throws {
        let depth = 100_000
        let text = "<model>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
            + "</model>"
        let folder = try TemporaryFolder()
        let version = try folder.write(text, to: "Deep.xcdatamodel/contents").deletingLastPathComponent()
        let modelError = try #require(throws: ModelError.self) { try ModelFileReader.read(at: version) }
        #expect(modelError.reason == .xmlTooDeep(maximum: XMLTreeReader.maximumDepth))

        let models = try ModelFileReader.read(at: try ModelFiles.writeVersion(
            "M", entities: #"<entity name="E"><attribute name="a" attributeType="String"/></entity>"#, in: folder.url))
        let mapping = try folder.write(text, to: "Deep.xcmappingmodel/xcmapping.xml").deletingLastPathComponent()
        let mappingError = try #require(throws: ModelError.self) { try MappingModelReader.read(at: mapping, models: models) }
        #expect(mappingError.reason == .xmlTooDeep(maximum: XMLTreeReader.maximumDepth))
    }

    @Test("nesting up to the limit still reads")
    func nestingAtTheLimit() throws {
        let depth = XMLTreeReader.maximumDepth
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        var element = try XMLTreeReader.read(data: Data(text.utf8), displayName: "ok.xml")
        var levels = 1
        while let child = element.children.first {
            element = child
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test("a composite attribute is refused with a message naming it")
    func compositeAttribute() throws {
        let folder = try TemporaryFolder()
        let url = try ModelFiles.writeVersion(
            "C", entities: #"<entity name="Person"><attribute name="address" attributeType="Composite" composite="Address"/></entity>"#,
            in: folder.url)
        let error = try #require(throws: ModelError.self) { try ModelFileReader.read(at: url) }
        #expect(error.entity == "Person" && error.property == "address")
        #expect(error.reason == .compositeAttribute)
        #expect(error.description.contains("composite attributes"))
    }

    @Test("an Xcode 3 binary-format model is named as such, with an elements file or a binary contents file",
          arguments: ["elements", "contents"])
    func binaryFormatModel(file: String) throws {
        let folder = try TemporaryFolder()
        let version = folder.url.appendingPathComponent("Old.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data("bplist00\u{0}\u{1}".utf8).write(to: version.appendingPathComponent(file))
        let error = try #require(throws: ModelError.self) { try ModelFileReader.read(at: version) }
        #expect(error.file == version.path)
        #expect(error.reason == .binaryFormatModel)
    }

    static let injected = "evil INTEGER; CREATE TABLE pwned (x); --"

    /// Names Xcode refuses, where each may stand in a model file, the entity named beside it, and
    /// why the name is refused.
    static let refusedNames: [(xml: String, name: String, entity: String?, refusal: ModelError.Reason)] = [
        (#"<entity name="Note"><attribute name="\#(injected)" attributeType="String"/></entity>"#, injected, "Note",
         .invalidName(.property, name: injected, problem: .characters)),
        (#"<entity name="Note"><relationship name="x y" destinationEntity="Note"/></entity>"#, "x y", "Note",
         .invalidName(.property, name: "x y", problem: .characters)),
        (#"<entity name="Note"><attribute name="Title" attributeType="String"/></entity>"#, "Title", "Note",
         .invalidName(.property, name: "Title", problem: .notLowerCaseStart)),
        (#"<entity name="Note"><attribute name="_title" attributeType="String"/></entity>"#, "_title", "Note",
         .invalidName(.property, name: "_title", problem: .notLowerCaseStart)),
        (#"<entity name="Note"><attribute name="tïtle" attributeType="String"/></entity>"#, "tïtle", "Note",
         .invalidName(.property, name: "tïtle", problem: .characters)),
        (#"<entity name="Note (x); DROP TABLE ZNOTE"><attribute name="a" attributeType="String"/></entity>"#,
         "Note (x); DROP TABLE ZNOTE", nil, .invalidName(.entity, name: "Note (x); DROP TABLE ZNOTE", problem: .characters)),
        (#"<entity name="note"><attribute name="a" attributeType="String"/></entity>"#, "note", nil,
         .invalidName(.entity, name: "note", problem: .notUpperCaseStart)),
        (#"<entity name="1Note"><attribute name="a" attributeType="String"/></entity>"#, "1Note", nil,
         .invalidName(.entity, name: "1Note", problem: .notUpperCaseStart)),
        (#"<entity name="Note"><attribute name="a" attributeType="String"/><fetchIndex name="by a; --"><fetchIndexElement property="a"/></fetchIndex></entity>"#,
         "by a; --", "Note", .invalidName(.fetchIndex, name: "by a; --", problem: .characters)),
        (#"<entity name="Note"><attribute name="a" attributeType="String"/></entity><configuration name="Cloud Sync"/>"#,
         "Cloud Sync", nil, .invalidName(.configuration, name: "Cloud Sync", problem: .characters)),
    ]

    @Test("names Xcode refuses are refused when a model file is read, the error keeping the name, its entity and the file",
          arguments: refusedNames.indices)
    func refusedName(index: Int) throws {
        let (xml, name, entity, refusal) = Self.refusedNames[index]
        let folder = try TemporaryFolder()
        let version = try ModelFiles.writeVersion("Hostile", entities: xml, in: folder.url)
        let error = try #require(throws: ModelError.self) { try ModelFileReader.read(at: version) }
        #expect(error.invalidName == name)
        #expect(error.entity == entity)
        #expect(error.file.hasPrefix(version.path) && error.line != nil, "\(error)")
        #expect(error.reason == refusal, "\(error)")
        // The message shows the name escaped, so a hostile name cannot pass for other words.
        #expect(error.description.contains(name.debugDescription), "\(error)")
    }

    @Test("names Xcode accepts still read: digits and underscores after the first letter")
    func acceptedNames() throws {
        let folder = try TemporaryFolder()
        let version = try ModelFiles.writeVersion("Fine", entities: """
            <entity name="Note_2"><attribute name="title_1" attributeType="String"/><attribute name="aB9" attributeType="String"/>\
            <fetchIndex name="byTitle_1"><fetchIndexElement property="title_1"/></fetchIndex></entity>\
            <configuration name="Default_1"/>
            """, in: folder.url)
        let model = try ModelFileReader.read(at: version).current
        #expect(model.entity(named: "Note_2")?.attributes.map(\.name) == ["title_1", "aB9"])
    }

    @Test("a compiled model (.mom) with a hostile attribute name is refused naming it")
    func hostileCompiledModel() throws {
        let folder = try TemporaryFolder()
        let mom = folder.url.appendingPathComponent("Hostile.mom")
        try CompiledModelArchive.data(entity: "Note", attributes: ["title", Self.injected]).write(to: mom)
        let error = try #require(throws: ModelError.self) { try ModelFileReader.read(at: mom) }
        #expect(error.invalidName == Self.injected && error.entity == "Note")
        #expect(error.reason == .invalidName(.property, name: Self.injected, problem: .characters))
        #expect(error.file == mom.path)
        // The same archive with Xcode's names reads: only the name was refused.
        try CompiledModelArchive.data(entity: "Note", attributes: ["title", "evil"]).write(to: mom)
        #expect(try ModelFileReader.read(at: mom).current.entity(named: "Note")?.attributes.count == 2)
    }

    @Test("a store whose cached model (Z_MODELCACHE) has a hostile name: refused naming it, nothing written")
    func hostileModelCache() throws {
        let folder = try TemporaryFolder()
        let store = try CompiledModelArchive.thingStore(cachingAttributes: [Self.injected], in: folder.url)
        let before = try Data(contentsOf: store)
        let thrown = try #require(throws: StoreModelCacheError.self) { try StoreModelCache.read(storeAt: store) }
        guard case .undecodable(_, let cause as ModelError) = thrown else {
            Issue.record("expected a ModelError cause, got \(thrown)")
            return
        }
        #expect(cause.invalidName == Self.injected && cause.entity == "Thing")
        #expect(cause.reason == .invalidName(.property, name: Self.injected, problem: .characters))
        #expect(cause.file.contains("Z_MODELCACHE"))
        #expect(try Data(contentsOf: store) == before)
    }

    @Test("no model with a hostile name can exist, so no store can be created from one")
    func noModelNoStore() throws {
        let hostile = EntityDescription(name: "Note", attributes: [AttributeDescription(name: Self.injected, type: .string)])
        let error = try #require(throws: ModelError.self) {
            try ManagedObjectModel(name: "M", entities: [hostile], sourceName: "built in code")
        }
        #expect(error.invalidName == Self.injected && error.file == "built in code")
        #expect(error.reason == .invalidName(.property, name: Self.injected, problem: .characters))
    }

    @Test("identifiers in SQL: Core Data's names as Core Data writes them, any other name quoted")
    func identifierQuoting() {
        #expect("ZNOTE".sqlIdentifier == "ZNOTE")
        #expect("Z_1TAGS".sqlIdentifier == "Z_1TAGS")
        #expect("Z_Note_byTitle".sqlIdentifier == "Z_Note_byTitle")
        #expect("ZEVIL INTEGER; CREATE TABLE PWNED (X); --".sqlIdentifier == #""ZEVIL INTEGER; CREATE TABLE PWNED (X); --""#)
        #expect(#"Z"X"#.sqlIdentifier == #""Z""X""#)
        #expect(#"a"; DROP TABLE ZNOTE; --"#.quotedSQLIdentifier == #""a""; DROP TABLE ZNOTE; --""#)
        #expect("ORDER".sqlIdentifier == #""ORDER""#)
        #expect("".sqlIdentifier == #""""#)
    }

}
