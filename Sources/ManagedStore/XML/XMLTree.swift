import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A parsed XML element with the line it starts on.
///
/// Xcode's model and mapping files are small, so a whole tree in memory is simpler to decode than
/// SAX callbacks, and keeping the line lets every later error point into the file.
public struct XMLTreeElement: Sendable {
    /// The element's name.
    public var name: String
    /// The element's attributes by name.
    public var attributes: [String: String]
    /// The child elements, in document order.
    public var children: [XMLTreeElement]
    /// The element's own text, joined (a mapping model's expressions are element text).
    public var text: String
    /// The line the element starts on, for errors that point into the file.
    public var line: Int

    /// The direct children with the given element name, in document order.
    public func children(named name: String) -> [XMLTreeElement] {
        children.filter { $0.name == name }
    }

    /// The first direct child with the given element name.
    public func child(named name: String) -> XMLTreeElement? {
        children.first { $0.name == name }
    }
}

/// Reads XML text into an `XMLTreeElement` tree, turning parser failures into `ModelError`s that
/// name the file and line.
///
/// Hostile files must not crash the program: FoundationXML traps on element names that are not
/// UTF-8, so the bytes are checked first; and the depth is bounded, so a deeply nested file can
/// neither build a tree whose recursive release overflows the stack nor exhaust memory.
public enum XMLTreeReader {
    /// Xcode's model and mapping files nest about six levels deep; far more means a broken file.
    public static let maximumDepth = 64
    /// Reads the file at `url`; `displayName` is how errors name it.
    public static func read(contentsOf url: URL, displayName: String) throws -> XMLTreeElement {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelError(file: displayName, reason: .unreadableFile(cause: .init(error)))
        }
        return try read(data: data, displayName: displayName)
    }

    /// Reads XML bytes; `displayName` is how errors name their source.
    public static func read(data: Data, displayName: String) throws -> XMLTreeElement {
        try requireUTF8(data, displayName: displayName)
        let parser = XMLParser(data: data)
        let builder = TreeBuilder(parser: parser, maximumDepth: maximumDepth)
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            let reason = builder.failure ?? parser.parserError.map(failure(of:)) ?? .xmlNoRootElement
            throw ModelError(file: displayName, line: builder.failureLine ?? parser.lineNumber, reason: reason)
        }
        return root
    }

    /// Xcode writes UTF-8 only; other bytes would reach FoundationXML, which traps on them in names.
    private static func requireUTF8(_ data: Data, displayName: String) throws {
        guard let text = String(data: data, encoding: .utf8) else {
            // A multi-byte character never contains a newline byte, so lines can be checked alone.
            let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
            let badLine = lines.firstIndex { String(data: Data($0), encoding: .utf8) == nil } ?? 0
            throw ModelError(file: displayName, line: badLine + 1, reason: .notUTF8)
        }
        let declaration = text.prefix(while: { $0 != ">" })
        if declaration.hasPrefix("<?xml"), let encoding = declaredEncoding(in: String(declaration)),
           !["utf-8", "utf8"].contains(encoding.lowercased()) {
            throw ModelError(file: displayName, line: 1, reason: .unsupportedEncoding(encoding))
        }
    }

    private static func declaredEncoding(in declaration: String) -> String? {
        guard let key = declaration.range(of: "encoding=") else { return nil }
        let rest = declaration[key.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    private static func failure(of error: Error) -> ModelError.Reason {
        .xmlParserError(code: (error as NSError).code)
    }
}

private final class TreeBuilder: NSObject, XMLParserDelegate {
    private unowned let parser: XMLParser
    private var stack: [XMLTreeElement] = []
    private(set) var root: XMLTreeElement?
    private(set) var failure: ModelError.Reason?
    private(set) var failureLine: Int?
    private let maximumDepth: Int

    init(parser: XMLParser, maximumDepth: Int) {
        self.parser = parser
        self.maximumDepth = maximumDepth
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard stack.count < maximumDepth else {
            fail(.xmlTooDeep(maximum: maximumDepth), line: parser.lineNumber)
            parser.abortParsing()
            return
        }
        stack.append(XMLTreeElement(name: elementName, attributes: attributeDict, children: [],
                                    text: "", line: parser.lineNumber))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        guard let finished = stack.popLast() else { return }
        if stack.isEmpty {
            root = finished
        } else {
            stack[stack.count - 1].children.append(finished)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        let nsError = parseError as NSError
        let message = (nsError.userInfo[NSLocalizedDescriptionKey] as? String)
            ?? (nsError.userInfo["NSXMLParserErrorMessage"] as? String)
        let reason: ModelError.Reason = message.map { .xmlSyntax(message: $0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            ?? .xmlParserError(code: nsError.code)
        fail(reason, line: parser.lineNumber)
    }

    /// Keeps the first failure: later ones are consequences of it.
    private func fail(_ reason: ModelError.Reason, line: Int) {
        guard failure == nil else { return }
        failure = reason
        failureLine = line
    }
}
