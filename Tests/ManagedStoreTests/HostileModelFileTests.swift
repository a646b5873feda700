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
        #expect(error.reason.contains("not UTF-8"))
    }

    @Test("a declared encoding other than UTF-8 is refused")
    func otherEncoding() throws {
        let text = #"<?xml version="1.0" encoding="ISO-8859-1"?><model/>"#
        let error = try #require(throws: ModelError.self) {
            try XMLTreeReader.read(data: Data(text.utf8), displayName: "latin.xml")
        }
        #expect(error.reason.contains("ISO-8859-1"))
    }

    @Test("100,000-deep nesting is refused at the depth limit, in model and mapping files")
    func deepNesting() throws {
        let depth = 100_000
        let text = "<model>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
            + "</model>"
        let folder = try TemporaryFolder()
        let version = try folder.write(text, to: "Deep.xcdatamodel/contents").deletingLastPathComponent()
        let modelError = try #require(throws: ModelError.self) { try ModelFileReader.read(at: version) }
        #expect(modelError.reason.contains("nest more than \(XMLTreeReader.maximumDepth) deep"))

        let models = try ModelFileReader.read(at: try ModelFiles.writeVersion(
            "M", entities: #"<entity name="E"><attribute name="a" attributeType="String"/></entity>"#, in: folder.url))
        let mapping = try folder.write(text, to: "Deep.xcmappingmodel/xcmapping.xml").deletingLastPathComponent()
        let mappingError = try #require(throws: ModelError.self) { try MappingModelReader.read(at: mapping, models: models) }
        #expect(mappingError.reason.contains("nest more than"))
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
        #expect(error.reason.contains("composite attributes"))
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
        #expect(error.reason.hasPrefix("an old binary-format model (Xcode 3) is not read"))
    }
}
