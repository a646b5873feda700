extension ModelError {
    /// What is wrong with a model, mapping model or the path given for one, as a case callers
    /// and tests can match rather than wording to search. Each case keeps the values its message
    /// names and, where another error stopped the read, that error as its cause; the words a user
    /// reads are made from the cases in one place (`description`).
    public enum Reason: Equatable, Sendable {
        // MARK: Paths

        /// Nothing is at the model's path, so there is nothing to read.
        case noSuchFileOrFolder
        /// The folder given (of mapping models, or for a report) does not exist.
        case noSuchFolder
        /// A file where a folder is needed (the folder a report is written in).
        case notAFolder
        /// A file given as the folder of mapping models a check reads.
        case notAFolderOfMappingModels
        /// A file given to `MappingModelReader.readAll`, which reads a folder of mapping models.
        case fileInsteadOfMappingModelFolder
        /// An `.xcdatamodeld` or `.xcdatamodel` that is a file: Xcode writes them as folders.
        case modelIsNotAFolder
        /// The folder cannot be written (a report's folder or file), so nothing is attempted.
        case permissionDenied
        /// A path whose extension is none of the model kinds read, so how to read it is unknown.
        case notAModelPath
        /// A model version's file could not be read; the system's error is kept.
        case unreadableFile(cause: Cause)
        /// A compiled model's folder could not be listed; the system's error is kept.
        case unreadableFolder(cause: Cause)
        /// A folder of mapping models could not be listed; the system's error is kept.
        case unreadableMappingModelFolder(cause: Cause)

        // MARK: Versions

        /// A model folder without any version of this kind (`xcdatamodel` or `mom`), so no model.
        case noVersions(fileExtension: String)
        /// Several versions and no `.xccurrentversion`: which one is current would be a guess.
        case noCurrentVersionFile
        /// `.xccurrentversion` is not a property list Xcode writes; the decoder's error is kept.
        case unreadableCurrentVersionFile(cause: Cause)
        /// `.xccurrentversion` lacks the key that names the current version.
        case noCurrentVersionKey
        /// The current version named is not among the versions read.
        case unknownCurrentVersion(String)
        /// A compiled model of several versions whose `VersionInfo.plist` names no current one.
        case noCurrentVersionInVersionInfo
        /// `VersionInfo.plist` is not a property list of the shape Xcode writes; the error is kept.
        case unreadableVersionInfo(cause: Cause)
        /// These entities' hashes differ from those Xcode recorded: the model is misread, so refused.
        case hashesDiffer(entities: [String])
        /// An Xcode 3 model, whose binary entities this reader does not decode.
        case binaryFormatModel

        // MARK: XML

        /// A byte sequence that is not UTF-8, which FoundationXML would trap on.
        case notUTF8
        /// The XML declaration names an encoding other than UTF-8.
        case unsupportedEncoding(String)
        /// Elements nest deeper than `maximum`: a broken or hostile file, refused before it costs.
        case xmlTooDeep(maximum: Int)
        /// The XML parser's own message about the syntax (free text from the parser).
        case xmlSyntax(message: String)
        /// The XML parser failed without a message, only its error code.
        case xmlParserError(code: Int)
        /// The XML has no root element at all.
        case xmlNoRootElement

        // MARK: Xcode model files

        /// The root element is not `<model>`: not a model's `contents` file.
        case notAModelDocument(rootElement: String)
        /// An element lacks an attribute it cannot do without (a name, a type, a destination).
        case missingAttribute(element: String, key: String)
        /// A YES/NO flag with another value.
        case notAFlag(key: String, value: String)
        /// A count (`minCount`, `maxCount`) that is not a whole number of zero or more.
        case notACount(key: String, value: String)
        /// A name Xcode would refuse, which must never reach the SQL built from it.
        case invalidName(ModelNameRule, name: String, problem: ModelNameRule.Problem)
        /// A composite attribute (Xcode 15), whose fields this engine does not store.
        case compositeAttribute
        /// An attribute type name this engine does not know.
        case unknownAttributeType(String)
        /// A deletion rule name this engine does not know.
        case unknownDeleteRule(String)
        /// A default value that does not parse as the attribute's type.
        case invalidDefaultValue(String, type: AttributeType)
        /// A default value on a type that cannot have one (binary, transformable, object ID).
        case defaultValueNotAllowed(type: AttributeType)

        // MARK: Compiled models

        /// Not an archive this reader can open; the archive's error is kept.
        case notACompiledModel(cause: Cause)
        /// An archive whose root is not an `NSManagedObjectModel`.
        case noManagedObjectModel
        /// The model archives no entity table.
        case noEntityTable
        /// The entity table holds something other than an entity.
        case damagedEntityTableEntry
        /// An archived entity without a name.
        case unnamedEntity
        /// An archived entity's parent without a name.
        case unnamedParentEntity
        /// An archived entity without its table of properties.
        case noPropertyTable
        /// A property in the table without a name or a description.
        case damagedPropertyEntry
        /// A compiled composite attribute, whose fields this engine does not store.
        case compiledCompositeAttribute
        /// An attribute type code this engine does not know.
        case unknownAttributeTypeCode(Int64)
        /// An archived relationship that names no destination entity.
        case noDestination
        /// Counts or a delete rule out of the range Core Data archives.
        case relationshipOutOfRange(minCount: Int64, maxCount: Int64, deleteRule: Int64)
        /// A derived attribute's archived expression cannot be read; the decoder's error is kept.
        case unreadableDerivation(cause: Cause)

        // MARK: Consistency of the model

        /// Two entities of one name.
        case duplicateEntity
        /// The parent entity named is not in the model.
        case unknownParent(String)
        /// The entity inherits from itself through this entity.
        case inheritanceCycle(through: String)
        /// More levels of inheritance than `maximum`, which hashing's walk up the parents bounds.
        case inheritanceTooDeep(maximum: Int)
        /// A property name used twice: in one entity (nil), or also by this parent entity.
        case duplicateProperty(alsoDeclaredBy: String?)
        /// The relationship's destination entity is not in the model.
        case unknownDestination(String)
        /// A relationship whose minimum count is above its maximum.
        case minCountAboveMaxCount(minCount: Int, maxCount: Int)
        /// The inverse named is not a relationship of the destination (or its parents).
        case inverseNotFound(inverse: String, destination: String)
        /// The inverse points to another entity than the relationship's own.
        case inverseOtherEntity(destination: String, inverse: String, pointsTo: String, entity: String)
        /// The inverse names another relationship as its own inverse.
        case inverseOtherRelationship(destination: String, inverse: String, itsInverse: String)
        /// A uniqueness constraint naming a property the entity does not have.
        case unknownConstraintProperty
        /// A fetch index naming a property the entity does not have.
        case unknownFetchIndexProperty(index: String)
        /// A to-many relationship without an inverse, whose rows could not be stored.
        case toManyWithoutInverse

        // MARK: Mapping models

        /// A compiled mapping model (`.cdm`), which is not read: the `.xcmappingmodel` is.
        case compiledMappingModel
        /// The root element is not `<database>`: not a Core Data XML store (`xcmapping.xml`).
        case notAnXMLStore(rootElement: String)
        /// An `<object>` of an XML store without its type or id.
        case objectWithoutTypeOrID
        /// An object refers to an id no object has.
        case missingObject(type: String, id: String, missing: String)
        /// No mapping model object in the file.
        case noMappingModelObject
        /// The mapping model does not name the model version for this key.
        case noVersionPath(key: String)
        /// The mapping model names a version the model does not have.
        case unknownVersion(key: String, version: String, model: String)
        /// Two mapping models for one pair of versions: which would run is a guess.
        case duplicateMappingModels(first: String, second: String, source: String, destination: String)
        /// An entity mapping's filter predicate does not parse.
        case filterPredicate(cause: PredicateParseError)
        /// A property mapping's archived expression is not base64.
        case expressionNotBase64
        /// A property mapping's archived expression cannot be decoded; the decoder's error is kept.
        case undecodableExpression(cause: Cause)
        /// An entity mapping's archived user info cannot be decoded; the decoder's error is kept.
        case unreadableUserInfo(cause: Cause)
    }
}
