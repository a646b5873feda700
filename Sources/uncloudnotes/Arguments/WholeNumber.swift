/// Whole numbers given on the command line, read with a message that says what is wrong with a
/// bad one; ArgumentParser alone says only that the value is invalid.
enum WholeNumber {
    /// A number counted from 1: a note's number, an image's number within its note.
    static func counted(_ text: String) throws -> Int {
        let number = try whole(text)
        guard number >= 1 else { throw WholeNumberError.notCounted(text) }
        return number
    }

    /// A count or a number of items to skip: 0 or more.
    static func count(_ text: String) throws -> Int {
        let number = try whole(text)
        guard number >= 0 else { throw WholeNumberError.negative(text) }
        return number
    }

    private static func whole(_ text: String) throws -> Int {
        guard let number = Int(text) else {
            let digits = text.drop { $0 == "-" || $0 == "+" }
            throw !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit) ? WholeNumberError.tooLarge(text) : WholeNumberError.notWhole(text)
        }
        return number
    }
}

/// What is wrong with a number given on the command line (ArgumentParser puts it after
/// "The value '…' is invalid for '<name>': ").
enum WholeNumberError: Error, CustomStringConvertible {
    case notWhole(String)
    case tooLarge(String)
    case notCounted(String)
    case negative(String)

    var description: String {
        switch self {
        case .notWhole: "it must be a whole number, written in digits"
        case .tooLarge: "the number is too large"
        case .notCounted: "it must be a positive whole number (numbers count from 1)"
        case .negative: "it must be a whole number, 0 or more"
        }
    }
}

extension Character {
    /// 0 to 9 only (`isNumber` also takes other scripts' digits and fractions).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
