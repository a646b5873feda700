import GRDB
@testable import ManagedStore
import Testing

/// The merge of the text tables' matches (one table per indexed attribute): newest first, an
/// object matched in several attributes once, paged as one list.
@Suite struct TextIndexMatchesTests {
    private static func merged(_ lists: [[Int64]], limit: Int?, offset: Int) throws -> [Int64] {
        try TextIndexMatches.merged(lists.map { AnyCursor(iterator: $0.makeIterator()) }, limit: limit, offset: offset)
    }

    @Test("positions matched in the title, the body or both come out once each, largest first, paged")
    func mergedOncePaged() throws {
        let titles: [Int64] = [900, 640, 320], bodies: [Int64] = [960, 640, 128, 64]
        #expect(try Self.merged([titles, bodies], limit: nil, offset: 0) == [960, 900, 640, 320, 128, 64])
        #expect(try Self.merged([titles, bodies], limit: 2, offset: 2) == [640, 320])
        #expect(try Self.merged([titles, bodies], limit: 10, offset: 5) == [64])
        #expect(try Self.merged([titles, bodies], limit: 3, offset: 6) == [])
        #expect(try Self.merged([[], bodies], limit: 0, offset: 0) == [])
        #expect(try Self.merged([], limit: nil, offset: 0) == [])
    }

    @Test("the merge reads no further into a table than the page it returns")
    func readsNoFurther() throws {
        var read = 0
        let counting = AnyCursor { () -> Int64? in
            read += 1
            return Int64(1_000 - read)
        }
        #expect(try TextIndexMatches.merged([counting], limit: 3, offset: 1) == [998, 997, 996])
        #expect(read <= 5, "\(read) read for a page of 3 after 1")
    }
}
