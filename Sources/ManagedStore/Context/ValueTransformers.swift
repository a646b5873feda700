import Foundation
import Synchronization

/// Turns the value of a Transformable attribute into bytes for the store and back, like
/// Foundation's `ValueTransformer` subclasses named in a model's `valueTransformerName`.
public protocol AttributeValueTransformer: Sendable {
    func encode(_ value: Any) throws -> Data
    func decode(_ data: Data) throws -> Any
}

/// The process-wide registry of value transformers by name, as Core Data looks them up.
public enum ValueTransformers {
    private static let registered = Mutex<[String: any AttributeValueTransformer]>([:])

    /// Makes `transformer` the one model files name `name`; an app registers its own before opening a store.
    public static func register(_ transformer: any AttributeValueTransformer, forName name: String) {
        registered.withLock { $0[name] = transformer }
    }

    /// The transformer registered under `name`, nil when there is none.
    public static func transformer(named name: String) -> (any AttributeValueTransformer)? {
        registered.withLock { $0[name] }
    }
}
