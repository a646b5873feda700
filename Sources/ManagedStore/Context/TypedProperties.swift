import Foundation

/// A Swift type that an attribute's value converts to and from, for typed entity classes.
public protocol AttributeConvertible {
    init?(attributeValue: AttributeValue)
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
    public let key: String

    public init(_ key: String) {
        self.key = key
    }

    @available(*, unavailable, message: "@Attribute works only on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

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
    public let key: String

    public init(_ key: String) {
        self.key = key
    }

    @available(*, unavailable, message: "@Transformed works only on ManagedObject subclasses")
    public var wrappedValue: Value? {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

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
    public let key: String

    public init(_ key: String) {
        self.key = key
    }

    @available(*, unavailable, message: "@ToOne works only on ManagedObject subclasses")
    public var wrappedValue: Target? {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

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
    public let key: String

    public init(_ key: String) {
        self.key = key
    }

    @available(*, unavailable, message: "@ToMany works only on ManagedObject subclasses")
    public var wrappedValue: [Target] {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

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
    public init?(attributeValue: AttributeValue) {
        guard case .string(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .string(self) }
    public static var valueWhenUnset: String { "" }
}

extension Int64: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .integer(self) }
    public static var valueWhenUnset: Int64 { 0 }
}

extension Int: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        guard case .integer(let value) = attributeValue, let fitting = Int(exactly: value) else { return nil }
        self = fitting
    }
    public var attributeValue: AttributeValue? { .integer(Int64(self)) }
    public static var valueWhenUnset: Int { 0 }
}

extension Double: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .double(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
    public var attributeValue: AttributeValue? { .double(self) }
    public static var valueWhenUnset: Double { 0 }
}

extension Float: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        guard let value = Double(attributeValue: attributeValue) else { return nil }
        self = Float(value)
    }
    public var attributeValue: AttributeValue? { .double(Double(self)) }
    public static var valueWhenUnset: Float { 0 }
}

extension Decimal: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        guard case .decimal(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .decimal(self) }
    public static var valueWhenUnset: Decimal { 0 }
}

extension Bool: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        guard case .bool(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .bool(self) }
    public static var valueWhenUnset: Bool { false }
}

extension Date: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        guard case .date(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .date(self) }
    public static var valueWhenUnset: Date { Date(timeIntervalSinceReferenceDate: 0) }
}

extension Data: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        guard case .data(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .data(self) }
    public static var valueWhenUnset: Data { Data() }
}

extension UUID: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        guard case .uuid(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .uuid(self) }
    public static var valueWhenUnset: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension URL: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        guard case .uri(let value) = attributeValue else { return nil }
        self = value
    }
    public var attributeValue: AttributeValue? { .uri(self) }
    public static var valueWhenUnset: URL { URL(string: "about:blank")! }
}

extension Optional: AttributeConvertible where Wrapped: AttributeConvertible {
    public init?(attributeValue: AttributeValue) {
        self = Wrapped(attributeValue: attributeValue)
    }
    public var attributeValue: AttributeValue? { self?.attributeValue ?? nil }
    public static var valueWhenUnset: Wrapped? { nil }
}
