import Foundation

/// A Swift type that an attribute's value converts to and from, for typed entity classes.
public protocol AttributeConvertible {
    /// Reads a stored value as this type; nil when it is of another type, so a typed property
    /// never traps on a value another version stored.
    init?(attributeValue: AttributeValue)
    /// The value to store for this Swift value; nil stores no value (an empty optional).
    var attributeValue: AttributeValue? { get }
    /// What a typed property reads before a value has been set (a required attribute on a new
    /// object); optional types read nil.
    static var valueWhenUnset: Self { get }
}

/// A typed attribute of a `ManagedObject` subclass: `@Attribute("title") var title: String`.
///
/// The value lives in the object's storage under `key`, so the typed and untyped views of an
/// object always agree; there is no Objective-C runtime on Linux, so this is the Swift way of
/// Core Data's `@NSManaged`.
@propertyWrapper
public struct Attribute<Value: AttributeConvertible> {
    /// The attribute's name in the model, the key the value is stored under.
    public let key: String

    /// Declares the property for the attribute named `key` in the entity's model.
    public init(_ key: String) {
        self.key = key
    }

    /// Not callable: the value is reached through the enclosing object, by the static subscript.
    @available(*, unavailable, message: "@Attribute works only on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// Reads and writes the value in the enclosing object's storage, so the typed property and
    /// `value(forKey:)` always agree.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped _: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            object.value(forKey: object[keyPath: storageKeyPath].key).flatMap(Value.init(attributeValue:)) ?? .valueWhenUnset
        }
        set {
            object.setValue(newValue.attributeValue, forKey: object[keyPath: storageKeyPath].key)
        }
    }
}

/// A typed Transformable attribute, decoded by the value transformer named in the model:
/// `@Transformed("image") var image: NoteImage?`.
@propertyWrapper
public struct Transformed<Value> {
    /// The Transformable attribute's name in the model.
    public let key: String

    /// Declares the property for the Transformable attribute named `key`.
    public init(_ key: String) {
        self.key = key
    }

    /// Not callable: the value is reached through the enclosing object, by the static subscript.
    @available(*, unavailable, message: "@Transformed works only on ManagedObject subclasses")
    public var wrappedValue: Value? {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// Decodes and encodes through the model's value transformer; a failure is kept on the object
    /// (for `checkReads()` or the next save) because an accessor cannot throw.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped _: ReferenceWritableKeyPath<Object, Value?>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value? {
        get {
            do {
                return try object.transformedValue(forKey: object[keyPath: storageKeyPath].key) as? Value
            } catch {
                // A getter cannot throw: the stored bytes that do not decode are kept for `checkReads()`.
                object.managedObjectContext?.recordReadFailure(.readFailed(
                    entity: object.entity.name, primaryKey: object.objectID.primaryKey, cause: error))
                return nil
            }
        }
        set {
            let key = object[keyPath: storageKeyPath].key
            do {
                try object.setTransformedValue(newValue, forKey: key)
            } catch {
                object.settingProblems[key] = "the value could not be transformed: \(error)"
                object.managedObjectContext?.noteChanged(object)
            }
        }
    }
}

/// A typed to-one relationship: `@ToOne("note") var note: Note?`.
@propertyWrapper
public struct ToOne<Target: ManagedObject> {
    /// The relationship's name in the model.
    public let key: String

    /// Declares the property for the to-one relationship named `key`.
    public init(_ key: String) {
        self.key = key
    }

    /// Not callable: the value is reached through the enclosing object, by the static subscript.
    @available(*, unavailable, message: "@ToOne works only on ManagedObject subclasses")
    public var wrappedValue: Target? {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// Reads and sets the related object through the context, which keeps the inverse up to date.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped _: ReferenceWritableKeyPath<Object, Target?>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Target? {
        get { object.object(forKey: object[keyPath: storageKeyPath].key) as? Target }
        set { object.setObject(newValue, forKey: object[keyPath: storageKeyPath].key) }
    }
}

/// A typed to-many relationship: `@ToMany("attachments") var attachments: [Attachment]`.
/// Assigning a list adds and removes members so that both sides stay consistent.
@propertyWrapper
public struct ToMany<Target: ManagedObject> {
    /// The relationship's name in the model.
    public let key: String

    /// Declares the property for the to-many relationship named `key`.
    public init(_ key: String) {
        self.key = key
    }

    /// Not callable: the value is reached through the enclosing object, by the static subscript.
    @available(*, unavailable, message: "@ToMany works only on ManagedObject subclasses")
    public var wrappedValue: [Target] {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// Reads the members; assigning removes those not in the new list and adds the others, so
    /// inverses and delete rules see each change.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped _: ReferenceWritableKeyPath<Object, [Target]>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> [Target] {
        get { object.objects(forKey: object[keyPath: storageKeyPath].key).compactMap { $0 as? Target } }
        set {
            let key = object[keyPath: storageKeyPath].key
            let wanted = Set(newValue.map(\.objectID))
            for member in object.objects(forKey: key) where !wanted.contains(member.objectID) {
                object.removeObject(member, forKey: key)
            }
            for member in newValue { object.addObject(member, forKey: key) }
        }
    }
}

// MARK: Conversions

extension String: AttributeConvertible {
    /// Reads a `.string` value only.
    public init?(attributeValue: AttributeValue) {
        guard case .string(let value) = attributeValue else { return nil }
        self = value
    }
    /// Stored as `.string`.
    public var attributeValue: AttributeValue? { .string(self) }
    /// The empty string, as a new required text attribute reads.
    public static var valueWhenUnset: String { "" }
}

extension Int64: AttributeConvertible {
    /// Reads an `.integer` value only.
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue else { return nil }
        self = value
    }
    /// Stored as `.integer`.
    public var attributeValue: AttributeValue? { .integer(self) }
    /// Zero, what a number attribute with no default reads before it is set.
    public static var valueWhenUnset: Int64 { 0 }
}

extension Int: AttributeConvertible {
    /// Reads an `.integer` value that fits in `Int` (32-bit platforms would not hold every Int64).
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue, let fitting = Int(exactly: value) else { return nil }
        self = fitting
    }
    /// Stored as `.integer`.
    public var attributeValue: AttributeValue? { .integer(Int64(self)) }
    /// Zero, what a number attribute with no default reads before it is set.
    public static var valueWhenUnset: Int { 0 }
}

extension Double: AttributeConvertible {
    /// Reads a `.double`, or an `.integer` widened (SQLite may hand back a whole number as one).
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .double(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
    /// Stored as `.double`.
    public var attributeValue: AttributeValue? { .double(self) }
    /// Zero, what a number attribute with no default reads before it is set.
    public static var valueWhenUnset: Double { 0 }
}

extension Float: AttributeConvertible {
    /// Reads what `Double` reads, narrowed.
    public init?(attributeValue: AttributeValue) {
        guard let value = Double(attributeValue: attributeValue) else { return nil }
        self = Float(value)
    }
    /// Stored as `.double` (Core Data stores floats as doubles).
    public var attributeValue: AttributeValue? { .double(Double(self)) }
    /// Zero, what a number attribute with no default reads before it is set.
    public static var valueWhenUnset: Float { 0 }
}

extension Decimal: AttributeConvertible {
    /// Reads a `.decimal` value only.
    public init?(attributeValue: AttributeValue) {
        guard case .decimal(let value) = attributeValue else { return nil }
        self = value
    }
    /// Stored as `.decimal`.
    public var attributeValue: AttributeValue? { .decimal(self) }
    /// Zero, what a number attribute with no default reads before it is set.
    public static var valueWhenUnset: Decimal { 0 }
}

extension Bool: AttributeConvertible {
    /// Reads a `.bool` value only.
    public init?(attributeValue: AttributeValue) {
        guard case .bool(let value) = attributeValue else { return nil }
        self = value
    }
    /// Stored as `.bool` (0 or 1 in the column).
    public var attributeValue: AttributeValue? { .bool(self) }
    /// False, what a flag with no default reads before it is set.
    public static var valueWhenUnset: Bool { false }
}

extension Date: AttributeConvertible {
    /// Reads a `.date` value only.
    public init?(attributeValue: AttributeValue) {
        guard case .date(let value) = attributeValue else { return nil }
        self = value
    }
    /// Stored as `.date` (seconds since 2001-01-01 in the column).
    public var attributeValue: AttributeValue? { .date(self) }
    /// The reference date, 2001-01-01 00:00 UTC, which is what a 0 column means.
    public static var valueWhenUnset: Date { Date(timeIntervalSinceReferenceDate: 0) }
}

extension Data: AttributeConvertible {
    /// Reads a `.data` value only.
    public init?(attributeValue: AttributeValue) {
        guard case .data(let value) = attributeValue else { return nil }
        self = value
    }
    /// Stored as `.data`.
    public var attributeValue: AttributeValue? { .data(self) }
    /// Empty data, what a binary attribute with no default reads before it is set.
    public static var valueWhenUnset: Data { Data() }
}

extension UUID: AttributeConvertible {
    /// Reads a `.uuid` value only.
    public init?(attributeValue: AttributeValue) {
        guard case .uuid(let value) = attributeValue else { return nil }
        self = value
    }
    /// Stored as `.uuid` (16 bytes in the column).
    public var attributeValue: AttributeValue? { .uuid(self) }
    /// The nil UUID, all zeros.
    public static var valueWhenUnset: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension URL: AttributeConvertible {
    /// Reads a `.uri` value only.
    public init?(attributeValue: AttributeValue) {
        guard case .uri(let value) = attributeValue else { return nil }
        self = value
    }
    /// Stored as `.uri` (its absolute string in the column).
    public var attributeValue: AttributeValue? { .uri(self) }
    /// `about:blank`, the one URL that names nothing.
    public static var valueWhenUnset: URL { URL(string: "about:blank")! } // a constant that parses
}

extension Optional: AttributeConvertible where Wrapped: AttributeConvertible {
    /// Reads what the wrapped type reads, so a wrong type reads as nil.
    public init?(attributeValue: AttributeValue) {
        self = Wrapped(attributeValue: attributeValue)
    }
    /// Stored as the wrapped value's, or no value for nil.
    public var attributeValue: AttributeValue? { self?.attributeValue ?? nil }
    /// Nil: an optional attribute without a value.
    public static var valueWhenUnset: Wrapped? { nil }
}
