import Foundation
import ManagedStore
import Testing
import TestSupport

@Suite("Predicates and expressions")
struct PredicateTests {
    @Test("parses the NSPredicate format subset", arguments: [
        ("title == 'a'", "title == \"a\""),
        ("title = \"a\" && body != nil", "(title == \"a\") AND (body != nil)"),
        ("NOT (a < 1 OR b >= 2.5)", "NOT ((a < 1) OR (b >= 2.5))"),
        ("!a <> 3", "NOT (a != 3)"),
        ("title CONTAINS[cd] \"milk\"", "title CONTAINS[cd] \"milk\""),
        ("title beginswith[c] 'A' and body endswith 'z'", "(title BEGINSWITH[c] \"A\") AND (body ENDSWITH \"z\")"),
        ("name LIKE 'j*n?' || name MATCHES '[a-z]+'", "(name LIKE \"j*n?\") OR (name MATCHES \"[a-z]+\")"),
        ("pages IN {1, 2, 3}", "pages IN {1, 2, 3}"),
        ("pages BETWEEN {1, 9}", "(pages >= 1) AND (pages <= 9)"),
        ("note.title =< $limit", "note.title <= $limit"),
        ("$source.image != NIL", "$source.image != nil"),
        ("flag == YES AND other == false", "(flag == YES) AND (other == NO)"),
        ("TRUEPREDICATE", "TRUEPREDICATE"),
        ("x > -4", "x > -4"),
    ])
    func parses(format: String, normalized: String) throws {
        #expect(try ObjectPredicate(format: format).description == normalized)
    }

    @Test("parses FUNCTION expressions as mapping models use them")
    func parsesFunction() throws {
        let expression = try ValueExpression(format:
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "NoteToNote", $source)"#)
        #expect(expression == .function(target: .variable("manager"),
                                        selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                                        arguments: [.constant(.string("NoteToNote")), .variable("source")]))
        #expect(try ValueExpression(format: "$source.note.body") == .keyPath(base: .variable("source"), components: ["note", "body"]))
    }

    @Test("parse errors name the position", arguments: [
        ("title ==", 8, "expected an expression, found the end"),
        ("title 'x'", 6, "expected a comparison operator"),
        ("(a == 1", 7, "expected ')'"),
        ("a == 'open", 5, "unterminated string"),
        ("a CONTAINS[q] 'x'", 11, "unknown comparison option 'q'"),
        ("a == 1 b", 7, "unexpected text after the end"),
        ("a == @", 5, "unexpected character '@'"),
    ])
    func parseErrors(format: String, position: Int, message: String) throws {
        let error = try #require(throws: PredicateParseError.self) { try ObjectPredicate(format: format) }
        #expect(error.position == position)
        #expect(error.message == message)
        #expect(error.description.contains("at position \(position)"))
    }
}

/// A plain object for evaluating predicates in memory.
private final class Bag: KeyValueReadable {
    let values: [String: AttributeValue]
    init(_ values: [String: AttributeValue]) { self.values = values }
    func expressionValue(forKey key: String) throws -> ExpressionValue {
        values[key].map { .scalar($0) } ?? .null
    }
}

@Suite("ObjectPredicate evaluation: SQL and memory agree")
struct PredicateAgreementTests {
    @Test("in-memory evaluation of text operators and options")
    func inMemory() throws {
        let bag = ExpressionValue.object(Bag(["title": .string("Crème Brûlée"), "pages": .integer(12)]))
        let evaluator = ExpressionEvaluator(variables: ["limit": .scalar(.integer(20))])
        let cases: [(String, Bool)] = [
            ("title CONTAINS 'Brûlée'", true), ("title CONTAINS 'brulee'", false), ("title CONTAINS[cd] 'BRULEE'", true),
            ("title BEGINSWITH[c] 'crème'", true), ("title ENDSWITH[d] 'Brulee'", true), ("title LIKE 'Cr*e ?r*'", true),
            ("title LIKE[c] 'crème*'", true), ("title MATCHES 'Cr.me .*'", true), ("title MATCHES 'rème'", false),
            ("pages < $limit", true), ("pages IN {1, 12}", true), ("missing == nil", true), ("missing != 3", true),
            ("NOT missing < 3", true), ("pages BETWEEN {12, 12}", true),
        ]
        for (format, expected) in cases {
            #expect(try evaluator.evaluate(ObjectPredicate(format: format), on: bag) == expected, "\(format)")
        }
    }

    @Test("every predicate gives the same objects through SQL as in memory")
    func sqlMatchesMemory() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        let context = ManagedObjectContext(store: store)
        let strings = ["apple", "Apple", "ÄPFEL", "äpfel", "Crème", "creme", "笔记", "note 🙂", "", "a*b", "x'y\"z", "Zebra"]
        var generator = SplitMix64(seed: 7)
        for index in 0..<240 {
            let sample = try context.insertObject(entityName: "Sample")
            if generator.next() % 5 != 0 { sample.setValue(.string(strings[Int(generator.next() % UInt64(strings.count))]), forKey: "string") }
            if generator.next() % 4 != 0 { sample.setValue(.integer(Int64(generator.next() % 20) - 5), forKey: "i64") }
            if generator.next() % 3 != 0 { sample.setValue(.double(Double(generator.next() % 1000) / 10), forKey: "double") }
            if index % 2 == 0 { sample.setValue(.bool(generator.next() % 2 == 0), forKey: "flag") }
            if index % 3 == 0 { sample.setValue(.date(Date(timeIntervalSinceReferenceDate: Double(generator.next() % 100_000))), forKey: "date") }
        }
        try context.save()
        let all = try context.fetch(FetchRequest(entityName: "Sample"))
        #expect(all.count == 240)

        let formats = [
            "string == 'apple'", "string != 'apple'", "string ==[c] 'apple'", "string ==[cd] 'APFEL'",
            "string < 'b'", "string >= 'creme'", "string CONTAINS 'pp'", "string CONTAINS[c] 'PP'",
            "string CONTAINS[cd] 'E'", "string CONTAINS[cd] 'apfel'", "string CONTAINS[d] 'Cre'", "string CONTAINS[cd] 'CREME'", "string CONTAINS[cd] '笔'", "string BEGINSWITH 'a'", "string BEGINSWITH[cd] 'a'", "string ENDSWITH[c] 'E'",
            "string LIKE '*e'", "string LIKE[c] 'a*'", "string LIKE 'a\\\\*b'", "string MATCHES '[a-z]+'",
            "string MATCHES[c] 'ap+le'", "string == nil", "string != nil", "string IN {'apple', 'Zebra', nil}",
            "string IN[c] {'APPLE', 'zebra'}", "i64 == 3", "i64 != 3", "i64 < 0", "i64 >= 10", "i64 IN {1, 2, 3}",
            "i64 BETWEEN {0, 4}", "double > 50.5", "double <= 20", "flag == YES", "flag == NO", "flag != YES",
            "date > $cutoff", "date == nil", "NOT (i64 < 0)", "NOT string CONTAINS 'e'",
            "i64 > 2 AND (string BEGINSWITH[c] 'a' OR double < 10)", "i64 == 5 OR i64 == nil", "string == 5",
            "i64 == 'apple'", "TRUEPREDICATE", "FALSEPREDICATE", "string ENDSWITH ''",
        ]
        let variables: [String: AttributeValue?] = ["cutoff": .date(Date(timeIntervalSinceReferenceDate: 50_000))]
        let evaluator = ExpressionEvaluator(variables: variables.mapValues { $0.map(ExpressionValue.scalar) ?? .null })
        for format in formats {
            let predicate = try ObjectPredicate(format: format)
            let viaSQL = try context.fetch(FetchRequest(entityName: "Sample", predicate: predicate, substitutionVariables: variables))
            let inMemory = try all.filter { try evaluator.evaluate(predicate, on: .object($0)) }
            #expect(Set(viaSQL.map(\.objectID)) == Set(inMemory.map(\.objectID)), "\(format)")
            #expect(try context.count(FetchRequest(entityName: "Sample", predicate: predicate, substitutionVariables: variables))
                == inMemory.count, "\(format)")
        }
    }

    @Test("what SQL cannot express is filtered in memory after the rest is pushed down, then windowed")
    func residualPredicate() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        let context = ManagedObjectContext(store: store)
        let red = try context.insertObject(entityName: "Tag")
        red.setValue(.string("red"), forKey: "name")
        for index in 0..<10 {
            let book = try context.insertObject(entityName: "Book")
            book.setValue(.string("b\(index)"), forKey: "title")
            book.setValue(.integer(Int64(index)), forKey: "pages")
            if index % 3 == 0 { book.addObject(red, forKey: "tags") }
        }
        try context.save()
        let request = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "pages > 2 AND 'red' IN tags.name"),
                                   sortDescriptors: [SortDescriptor("pages", ascending: false)], fetchLimit: 2)
        #expect(try context.fetch(request).map { $0.value(forKey: "title") } == [.string("b9"), .string("b6")])
        #expect(try context.count(request) == 2)
    }

    @Test("case and diacritic folding gives what Foundation's folding gives, character by character",
          arguments: ["Crème Brûlée", "STRASSE straße", "e\u{301}cole", "ÄÖÜ äöü", "笔记 Notes 🙂", "ǅemal", "İstanbul", "plain ascii TEXT"])
    func folding(text: String) throws {
        for options: String.CompareOptions in [[.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]] {
            let expected = text.folding(options: options, locale: nil).precomposedStringWithCanonicalMapping
            let bag = ExpressionValue.object(Bag(["t": .string(text)]))
            let flags = (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "")
            let predicate = ObjectPredicate.comparison(.keyPath(base: nil, components: ["t"]), .equal, .constant(.string(expected)),
                                                       ComparisonOptions(rawValue: (options.contains(.caseInsensitive) ? 1 : 0) | (options.contains(.diacriticInsensitive) ? 2 : 0)))
            #expect(try ExpressionEvaluator().evaluate(predicate, on: bag), "\(text) [\(flags)]")
        }
    }

    @Test("FUNCTION asks its target to perform the selector")
    func functionCall() throws {
        let evaluator = ExpressionEvaluator(variables: ["checker": .object(MultiplesOf(3))])
        let predicate = try ObjectPredicate(format: "FUNCTION($checker, 'accepts:', pages) == YES")
        #expect(try evaluator.evaluate(predicate, on: .object(Bag(["pages": .integer(9)]))))
        #expect(try !evaluator.evaluate(predicate, on: .object(Bag(["pages": .integer(10)]))))
        #expect(throws: ExpressionEvaluationError.self) {
            try evaluator.evaluate(ObjectPredicate(format: "FUNCTION($checker, 'nope:', pages) == YES"), on: .object(Bag([:])))
        }
    }
}

/// A FUNCTION target for tests: `accepts:` answers whether a number is a multiple.
private final class MultiplesOf: KeyValueReadable, ExpressionFunctionTarget {
    let divisor: Int64
    init(_ divisor: Int64) { self.divisor = divisor }
    func expressionValue(forKey key: String) throws -> ExpressionValue { .null }
    func perform(selector: String, arguments: [ExpressionValue]) throws -> ExpressionValue {
        guard selector == "accepts:", case .scalar(.integer(let value))? = arguments.first else {
            throw ExpressionEvaluationError("unknown selector \(selector)")
        }
        return .scalar(.bool(value % divisor == 0))
    }
}
