/// Text that arrives as bytes (the command line, a pipe) decoded as UTF-8, as Swift decodes it:
/// each sequence that is not UTF-8 (a Latin-1 `é` under `LANG=C`, say) becomes U+FFFD. The
/// count of such bytes lets the command line say so instead of changing the text silently.
public struct DecodedText: Equatable, Sendable {
    /// The decoded text, U+FFFD where bytes were not UTF-8.
    public let text: String
    /// How many bytes were not UTF-8, and so were replaced by U+FFFD.
    public let replacedBytes: Int

    /// Decodes `bytes` as UTF-8 and counts the bytes it had to replace.
    public init(utf8 bytes: some Collection<UInt8>) {
        if let valid = String(validating: bytes, as: UTF8.self) {
            text = valid
            replacedBytes = 0
            return
        }
        text = String(decoding: bytes, as: UTF8.self)
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var replaced = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .error(let length): replaced += length
            case .emptyInput: replacedBytes = replaced; return
            }
        }
    }
}
