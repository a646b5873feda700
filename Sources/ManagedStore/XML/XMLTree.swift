import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A parsed XML element with the line it starts on.
///
/// Xcode's model and mapping files are small, so a whole tree in memory is simpler to decode than
/// SAX callbacks, and keeping the line lets every later error point into the file.
public struct XMLTreeElement: Sendable {
    public var name: String
    public var attributes: [String: String]
    public var children: [XMLTreeElement]
    public var text: String
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
public enum XMLTreeReader {
    public static func read(contentsOf url: URL, displayName: String) throws -> XMLTreeElement {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ModelError(file: displayName, reason: "cannot read the file (\(error.localizedDescription))")
        }
        return try read(data: data, displayName: displayName)
    }

    public static func read(data: Data, displayName: String) throws -> XMLTreeElement {
        let parser = XMLParser(data: data)
        let builder = TreeBuilder(parser: parser)
        parser.delegate = builder
        let succeeded = parser.parse()
        if !succeeded || builder.root == nil {
            let reason = builder.failure ?? parser.parserError.map(describe) ?? "the document has no root element"
            throw ModelError(file: displayName, line: builder.failureLine ?? parser.lineNumber,
                             reason: "malformed XML: \(reason)")
        }
        return builder.root!
    }

    private static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        return "parser error \(nsError.code)"
    }
}

private final class TreeBuilder: NSObject, XMLParserDelegate {
    private unowned let parser: XMLParser
    private var stack: [XMLTreeElement] = []
    private(set) var root: XMLTreeElement?
    private(set) var failure: String?
    private(set) var failureLine: Int?

    init(parser: XMLParser) {
        self.parser = parser
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
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
        guard failure == nil else { return }
        let nsError = parseError as NSError
        let detail = (nsError.userInfo[NSLocalizedDescriptionKey] as? String)
            ?? (nsError.userInfo["NSXMLParserErrorMessage"] as? String)
            ?? "parser error \(nsError.code)"
        failure = detail.trimmingCharacters(in: .whitespacesAndNewlines)
        failureLine = parser.lineNumber
    }
}
