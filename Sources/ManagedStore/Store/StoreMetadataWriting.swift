import Foundation

extension StoreMetadata {
    /// `NSPersistenceFrameworkVersion` written into new stores: the value in stores written by
    /// the Core Data release this format was checked against.
    public static let frameworkVersionWritten = 1344

    /// The metadata Core Data writes for a store of the given model version.
    public init(model: ManagedObjectModel, storeUUID: String) {
        self.init(storeUUID: storeUUID, storeType: "SQLite", versionHashes: model.entityVersionHashes,
                  versionHashesVersion: 3, versionIdentifiers: [model.versionIdentifier],
                  frameworkVersion: Self.frameworkVersionWritten,
                  versionHashesDigest: model.versionHashesDigest, versionChecksum: model.versionChecksum)
    }

    /// The binary property list stored in `Z_METADATA.Z_PLIST`, with Core Data's keys.
    public func plistData() throws -> Data {
        try StoreMetadataPlist(storeType: storeType, versionHashes: versionHashes, versionIdentifiers: versionIdentifiers,
                               versionHashesVersion: versionHashesVersion, frameworkVersion: frameworkVersion,
                               versionHashesDigest: versionHashesDigest, versionChecksum: versionChecksum).binaryData()
    }
}
