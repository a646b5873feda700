extension ObjectPredicate {
    /// The predicate's value when no object's values can change it (`TRUEPREDICATE`,
    /// `NOT FALSEPREDICATE`, an AND of such as a composed chain of mappings writes it); nil when
    /// it depends on the object. An empty AND holds and an empty OR fails, as in NSCompoundPredicate.
    var constantValue: Bool? {
        switch self {
        case .constant(let value): value
        case .comparison: nil
        case .not(let inner): inner.constantValue.map { !$0 }
        case .and(let parts): Self.combine(parts.map(\.constantValue), decidedBy: false)
        case .or(let parts): Self.combine(parts.map(\.constantValue), decidedBy: true)
        }
    }

    /// AND is decided by one false part and OR by one true part; otherwise the result is known
    /// only when every part is.
    private static func combine(_ values: [Bool?], decidedBy deciding: Bool) -> Bool? {
        if values.contains(deciding) { return deciding }
        return values.allSatisfy { $0 != nil } ? !deciding : nil
    }
}

extension EntityMapping {
    /// True when the mapping takes every object of its source entity: it has no filter, or one
    /// that holds for every object (Xcode may write `TRUEPREDICATE`). Such a mapping's objects
    /// can keep their source keys and its count is the source's.
    var takesEverySourceObject: Bool {
        filterPredicate.map { $0.constantValue == true } ?? true
    }
}
