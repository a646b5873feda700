import Foundation
import ManagedStore
import Testing
import TestSupport

@Suite("Rejecting malformed and inconsistent models")
struct ModelValidationTests {
    /// Loads a one-version model made of the given entity XML and returns the error it fails with.
    private func loadError(_ entities: String) throws -> ModelError {
        let folder = try TemporaryFolder()
        let url = try ModelFiles.writeVersion("Broken", entities: entities, in: folder.url)
        return try #require(throws: ModelError.self, "the model loaded, but it should have been refused") {
            try ModelFileReader.read(at: url)
        }
    }

    @Test("malformed XML is reported with the file and the line")
    func malformedXML() throws {
        let error = try loadError("""
            <entity name="Note">
                <attribute name="title" attributeType="String">
            </entity>
            """)
        #expect(error.file.hasSuffix("Broken.xcdatamodel/contents"))
        #expect(error.line == 5)
        switch error.reason {
        case .xmlSyntax, .xmlParserError: break
        default: Issue.record("expected the XML parser's failure, got \(error)")
        }
        #expect(error.description.contains("Broken.xcdatamodel/contents:5: malformed XML"))
    }

    @Test("a file that is not XML at all is reported, not crashed on")
    func notXML() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("Junk.xcdatamodel")
        try folder.write("\u{00}\u{01}binary junk", to: "Junk.xcdatamodel/contents")
        #expect(throws: ModelError.self) { try ModelFileReader.read(at: url) }
    }

    @Test("an unknown attribute type names the entity and the property")
    func unknownAttributeType() throws {
        let error = try loadError("""
            <entity name="Note"><attribute name="mood" attributeType="Feelings"/></entity>
            """)
        #expect(error.entity == "Note" && error.property == "mood")
        #expect(error.reason == .unknownAttributeType("Feelings"))
        #expect(error.line == 3)
    }

    @Test("consistency errors name the entity, the property and the reason",
          arguments: [
            (#"<entity name="A"><relationship name="b" maxCount="1" destinationEntity="Ghost"/></entity>"#,
             "A", "b", .unknownDestination("Ghost")),
            (#"<entity name="A" parentEntity="Ghost"/>"#,
             "A", nil, .unknownParent("Ghost")),
            (#"<entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/>"#,
             "A", nil, .inheritanceCycle(through: "A")),
            (#"<entity name="A"/><entity name="A"/>"#,
             "A", nil, .duplicateEntity),
            (#"<entity name="A"><attribute name="x" attributeType="String"/><attribute name="x" attributeType="Date"/></entity>"#,
             "A", "x", .duplicateProperty(alsoDeclaredBy: nil)),
            (#"<entity name="P"><attribute name="x" attributeType="String"/></entity><entity name="C" parentEntity="P"><attribute name="x" attributeType="String"/></entity>"#,
             "C", "x", .duplicateProperty(alsoDeclaredBy: "P")),
            (#"<entity name="A"><relationship name="b" maxCount="1" destinationEntity="B" inverseName="nope"/></entity><entity name="B"/>"#,
             "A", "b", .inverseNotFound(inverse: "nope", destination: "B")),
            (#"<entity name="A"><relationship name="b" maxCount="1" destinationEntity="B" inverseName="c"/></entity><entity name="B"><relationship name="c" maxCount="1" destinationEntity="C"/></entity><entity name="C"/>"#,
             "A", "b", .inverseOtherEntity(destination: "B", inverse: "c", pointsTo: "C", entity: "A")),
            (#"<entity name="A"><relationship name="b" maxCount="1" destinationEntity="B" inverseName="a"/><relationship name="b2" maxCount="1" destinationEntity="B"/></entity><entity name="B"><relationship name="a" maxCount="1" destinationEntity="A" inverseName="b2"/></entity>"#,
             "A", "b", .inverseOtherRelationship(destination: "B", inverse: "a", itsInverse: "b2")),
            (#"<entity name="A"><attribute name="n" attributeType="Integer 16" defaultValueString="70000"/></entity>"#,
             "A", "n", .invalidDefaultValue("70000", type: .integer16)),
            (#"<entity name="A"><attribute name="d" attributeType="Date" defaultDateTimeInterval="soon"/></entity>"#,
             "A", "d", .invalidDefaultValue("soon", type: .date)),
            (#"<entity name="A"><attribute name="o" optional="MAYBE" attributeType="String"/></entity>"#,
             "A", "o", .notAFlag(key: "optional", value: "MAYBE")),
            (#"<entity name="A"><relationship name="r" toMany="YES" minCount="3" maxCount="2" destinationEntity="A"/></entity>"#,
             "A", "r", .minCountAboveMaxCount(minCount: 3, maxCount: 2)),
            (#"<entity name="A"><relationship name="r" maxCount="1" deletionRule="Explode" destinationEntity="A"/></entity>"#,
             "A", "r", .unknownDeleteRule("Explode")),
            (#"<entity name="A"><uniquenessConstraints><uniquenessConstraint><constraint value="zip"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
             "A", "zip", .unknownConstraintProperty),
            (#"<entity name="A"><attribute name="title"/></entity>"#,
             "A", "title", .missingAttribute(element: "attribute", key: "attributeType")),
          ] as [(String, String, String?, ModelError.Reason)])
    func consistencyErrors(xml: String, entity: String, property: String?, reason: ModelError.Reason) throws {
        let error = try loadError(xml)
        #expect(error.entity == entity)
        #expect(error.property == property)
        #expect(error.reason == reason)
        #expect(error.file.hasSuffix("Broken.xcdatamodel/contents"))
    }

    @Test("an inheritance chain deeper than 64 entities is refused, naming the deepest")
    func deepInheritance() throws {
        let chain = (0..<70).map { index in
            index == 0 ? #"<entity name="E0"/>"# : #"<entity name="E\#(index)" parentEntity="E\#(index - 1)"/>"#
        }
        let error = try loadError(chain.joined(separator: "\n"))
        #expect(error.reason == .inheritanceTooDeep(maximum: 64))
        #expect(error.entity.map { Int($0.dropFirst()) ?? 0 >= 64 } == true)
    }

    @Test("a versioned model without .xccurrentversion and several versions is refused")
    func missingCurrentVersion() throws {
        let folder = try TemporaryFolder()
        let bundle = folder.url.appendingPathComponent("M.xcdatamodeld")
        try ModelFiles.writeVersion("M", entities: "", in: bundle)
        try ModelFiles.writeVersion("M v2", entities: "", in: bundle)
        let missing = try #require(throws: ModelError.self) { try ModelFileReader.read(at: bundle) }
        #expect(missing.reason == .noCurrentVersionFile)

        try folder.write(ModelFiles.currentVersion("M v9"), to: "M.xcdatamodeld/.xccurrentversion")
        let error = try #require(throws: ModelError.self) { try ModelFileReader.read(at: bundle) }
        #expect(error.reason == .unknownCurrentVersion("M v9"))
    }

    @Test("paths that are not models are refused with the path named",
          arguments: ["/nonexistent/Model.xcdatamodeld", "/etc/hostname", "/tmp"])
    func notAModel(path: String) throws {
        let error = try #require(throws: ModelError.self) {
            try ModelFileReader.read(at: URL(fileURLWithPath: path))
        }
        #expect(error.file == path)
    }
}
