extension ModelError.Reason: CustomStringConvertible {
    /// The reason in the words a user reads after the file and place (the only place they are
    /// made, so the command line's messages stay as they were).
    public var description: String {
        switch self {
        case .noSuchFileOrFolder: "no such file or folder"
        case .noSuchFolder: "no such folder"
        case .notAFolder: "not a folder"
        case .notAFolderOfMappingModels: "not a folder of mapping models"
        case .fileInsteadOfMappingModelFolder: "this is a file, not a folder of mapping models (.xcmappingmodel)"
        case .modelIsNotAFolder: "not a folder: Xcode models are folders"
        case .permissionDenied: "permission denied"
        case .notAModelPath:
            "not a Core Data model: expected a .xcdatamodeld or .xcdatamodel folder, or a compiled .momd folder or .mom file"
        case .unreadableFile(let cause): "cannot read the file (\(cause.error.localizedDescription))"
        case .unreadableFolder(let cause): "cannot read the folder: \(cause.error.localizedDescription)"
        case .unreadableMappingModelFolder(let cause):
            "cannot read the folder of mapping models: \(cause.error.localizedDescription)"
        case .noVersions(let fileExtension): "the folder holds no .\(fileExtension) version"
        case .noCurrentVersionFile: "missing: a model with several versions must name its current one"
        case .unreadableCurrentVersionFile: "not a readable property list"
        case .noCurrentVersionKey: "no _XCCurrentVersionName key"
        case .unknownCurrentVersion(let name): "the current version \"\(name)\" is not one of the model's versions"
        case .noCurrentVersionInVersionInfo: "no VersionInfo.plist names the current version"
        case .unreadableVersionInfo(let cause):
            "not a readable property list of keys and values: \(cause.error.localizedDescription)"
        case .hashesDiffer(let entities):
            "the hashes of \(entities.joined(separator: ", ")) differ from VersionInfo.plist: this model cannot be read faithfully"
        case .binaryFormatModel:
            "an old binary-format model (Xcode 3) is not read: open it in a current Xcode, which saves it as XML, "
                + "or pass the compiled .mom or .momd"
        case .notUTF8: "not UTF-8 text: the file is damaged or not an Xcode file"
        case .unsupportedEncoding(let encoding): "declares encoding \"\(encoding)\": only UTF-8 files are read"
        case .xmlTooDeep(let maximum): "malformed XML: elements nest more than \(maximum) deep"
        case .xmlSyntax(let message): "malformed XML: \(message)"
        case .xmlParserError(let code): "malformed XML: parser error \(code)"
        case .xmlNoRootElement: "malformed XML: the document has no root element"
        case .notAModelDocument(let root): "expected a <model> root element, found <\(root)>"
        case .missingAttribute(let element, let key): "<\(element)> has no \(key)"
        case .notAFlag(let key, let value): "\(key) must be YES or NO, not \"\(value)\""
        case .notACount(let key, let value): "\(key) must be a whole number, not \"\(value)\""
        case .invalidName(let kind, let name, let problem): kind.refusalText(of: name, problem)
        case .compositeAttribute:
            "composite attributes (Xcode 15) are not supported: store the composite's fields as separate attributes "
                + "to open this model"
        case .unknownAttributeType(let name): "unknown attribute type \"\(name)\""
        case .unknownDeleteRule(let name): "unknown deletion rule \"\(name)\""
        case .invalidDefaultValue(let text, let type): "default value \"\(text)\" is not a valid \(type.rawValue)"
        case .defaultValueNotAllowed(let type): "a \(type.rawValue) attribute cannot have a default value"
        case .notACompiledModel(let cause): "not a compiled Core Data model (\(cause))"
        case .noManagedObjectModel: "the archive holds no NSManagedObjectModel"
        case .noEntityTable: "the model has no entity table"
        case .damagedEntityTableEntry: "an entry of the entity table is not an entity"
        case .unnamedEntity: "an entity has no name"
        case .unnamedParentEntity: "the parent entity has no name"
        case .noPropertyTable: "the entity has no property table"
        case .damagedPropertyEntry: "a property entry is damaged"
        case .compiledCompositeAttribute:
            "composite attributes are not supported: store the composite's fields as separate attributes"
        case .unknownAttributeTypeCode(let code): "unknown attribute type code \(code)"
        case .noDestination: "the relationship has no destination"
        case .relationshipOutOfRange(let minCount, let maxCount, let deleteRule):
            "counts \(minCount)...\(maxCount) or delete rule \(deleteRule) out of range"
        case .unreadableDerivation(let cause): "the derivation cannot be read (\(cause))"
        case .duplicateEntity: "duplicate entity name"
        case .unknownParent(let name): "unknown parent entity \"\(name)\""
        case .inheritanceCycle(let name): "inheritance cycle through \"\(name)\""
        case .inheritanceTooDeep(let maximum): "inherits through more than \(maximum) entities"
        case .duplicateProperty(nil): "duplicate property name"
        case .duplicateProperty(let parent?): "duplicate property name: also declared by parent entity \(parent)"
        case .unknownDestination(let name): "unknown destination entity \"\(name)\""
        case .minCountAboveMaxCount(let minCount, let maxCount): "minCount \(minCount) is greater than maxCount \(maxCount)"
        case .inverseNotFound(let inverse, let destination):
            "inverse relationship \"\(inverse)\" not found on entity \(destination)"
        case .inverseOtherEntity(let destination, let inverse, let pointsTo, let entity):
            "inverse mismatch: \(destination).\(inverse) points to \(pointsTo), not \(entity)"
        case .inverseOtherRelationship(let destination, let inverse, let itsInverse):
            "inverse mismatch: \(destination).\(inverse) names \"\(itsInverse)\" as its inverse"
        case .unknownConstraintProperty: "uniqueness constraint names an unknown property"
        case .unknownFetchIndexProperty(let index): "fetch index \"\(index)\" names an unknown property"
        case .toManyWithoutInverse: "a to-many relationship needs an inverse to be stored"
        case .compiledMappingModel: "compiled mapping models are not read: pass the .xcmappingmodel"
        case .notAnXMLStore(let root): "expected a Core Data XML store (<database>), found <\(root)>"
        case .objectWithoutTypeOrID: "an <object> needs a type and an id"
        case .missingObject(let type, let id, let missing): "\(type) \(id) refers to a missing object \(missing)"
        case .noMappingModelObject: "no mapping model object (XDDEVMAPPINGMODEL) in the file"
        case .noVersionPath(let key): "the mapping model has no \(key)"
        case .unknownVersion(let key, let version, let model):
            "the mapping model's \(key) names version \"\(version)\", which \(model) does not have"
        case .duplicateMappingModels(let first, let second, let source, let destination):
            "\(first) and \(second) both map \(source) to \(destination): keep one of them"
        case .filterPredicate(let cause): "the filter predicate: \(cause)"
        case .expressionNotBase64: "valueexpressiondata is not base64"
        case .undecodableExpression(let cause): "cannot decode the archived expression: \(cause)"
        case .unreadableUserInfo(let cause): "its user info cannot be read: \(cause)"
        }
    }
}
