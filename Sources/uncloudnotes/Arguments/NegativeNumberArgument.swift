/// ArgumentParser reads `-1` as an option, so `notes show -1` is refused as "Missing expected
/// argument '<note>'", which hides the mistake. The numbers this program takes as arguments
/// count from 1, so the message names the number and what is wrong with it instead.
enum NegativeNumberArgument {
    /// The arguments that are numbers counted from 1, as usage messages name them.
    static let countedArguments: Set<String> = ["<note>", "<image>"]

    /// ArgumentParser's message, with a missing number argument explained by the negative
    /// number among `arguments` (before any `--`), when there is one.
    static func reworded(_ message: String, arguments: [String]) -> String {
        let marker = "Missing expected argument '"
        guard let start = message.range(of: marker),
              let end = message[start.upperBound...].firstIndex(of: "'"),
              countedArguments.contains(String(message[start.upperBound..<end])),
              let number = arguments.prefix(while: { $0 != "--" }).first(where: isNegativeNumber) else { return message }
        let name = message[start.upperBound..<end]
        return message.replacingCharacters(in: start.lowerBound...end,
                                           with: "The value '\(number)' is invalid for '\(name)': \(WholeNumberError.notCounted(number))")
    }

    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.hasPrefix("-") && argument.dropFirst().allSatisfy { ("0"..."9").contains($0) }
    }
}
