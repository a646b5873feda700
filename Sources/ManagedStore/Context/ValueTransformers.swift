import Foundation

/// Turns the value of a Transformable attribute into bytes for the store and back, like
/// Foundation's `ValueTransformer` subclasses named in a model's `valueTransformerName`.
public protocol AttributeValueTransformer: Sendable {
    func encode(_ value: Any) throws -> Data
    func decode(_ data: Data) throws -> Any
}

/// The value transformers a context uses, by the name a model's `valueTransformerName` gives.
/// Core Data keeps them in a process-wide registry filled at launch; here an app hands its own
/// to each context it makes, so what a context can decode is visible where it is made.
public struct ValueTransformers: Sendable {
    private let byName: [String: any AttributeValueTransformer]

    /// - Parameter byName: each transformer under the name model files give it.
    public init(_ byName: [String: any AttributeValueTransformer] = [:]) {
        self.byName = byName
    }

    /// The transformer named `name`, nil when there is none.
    public func transformer(named name: String) -> (any AttributeValueTransformer)? {
        byName[name]
    }
}
