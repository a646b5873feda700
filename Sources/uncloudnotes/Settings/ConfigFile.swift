import Foundation
import TOMLKit
import UnCloudNotesKit

/// The user's settings file, `$XDG_CONFIG_HOME/uncloudnotes/config.toml` (`~/.config/…` when the
/// variable is unset): read once at start, each setting by the option it stands for (`images`
/// for `--images`), the command line winning; settings of one feature in a table (`[sync]`). A
/// key the app does not know, a value of the wrong type or outside its choices is an error
/// naming the file and key, so a typo never passes silently.
struct ConfigFile {
    /// The keys the file may hold; each setting adds its own.
    static let knownKeys: Set<String> = ["images", "sync"]
    /// The keys of each table.
    static let knownTableKeys: [String: Set<String>] = ["sync": ["on_open", "on_quit"]]

    let path: String
    private let table: TOMLTable

    /// Where the file is looked for.
    static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ConfigFolder.url(environment: environment).appendingPathComponent("config.toml")
    }

    /// The file at `url`; nil when there is none (every setting then has its default).
    static func load(from url: URL = defaultURL()) throws(ConfigFileError) -> ConfigFile? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw .unreadable(path: url.path, underlying: error)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .notUTF8(path: url.path) }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntax(path: url.path, line: error.source.begin.line, message: error.description)
        } catch {
            throw .unreadable(path: url.path, underlying: error)
        }
        if let unknown = table.keys.sorted().first(where: { !knownKeys.contains($0) }) {
            throw .unknownKey(path: url.path, key: unknown, known: knownKeys.sorted())
        }
        for (name, keys) in knownTableKeys.sorted(by: { $0.key < $1.key }) {
            guard let value = table[name] else { continue }
            guard let inner = value.table else { throw .notATable(path: url.path, key: name) }
            if let unknown = inner.keys.sorted().first(where: { !keys.contains($0) }) {
                throw .unknownKey(path: url.path, key: "\(name).\(unknown)", known: keys.sorted().map { "\(name).\($0)" })
            }
        }
        return ConfigFile(path: url.path, table: table)
    }

    /// The true/false setting `key` of the table `name`; nil when the file leaves it out.
    func flag(_ key: String, in name: String) throws(ConfigFileError) -> Bool? {
        guard let value = table[name]?.table?[key] else { return nil }
        guard let flag = value.bool else { throw .notABool(path: path, key: "\(name).\(key)") }
        return flag
    }

    /// The value of `key`, one of `choices`; nil when the file leaves it out.
    func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, of type: Choice.Type) throws(ConfigFileError) -> Choice?
    where Choice.RawValue == String {
        guard let value = table[key] else { return nil }
        let allowed = Choice.allCases.map(\.rawValue)
        guard let text = value.string else { throw .notAString(path: path, key: key, allowed: allowed) }
        guard let choice = Choice(rawValue: text) else { throw .badValue(path: path, key: key, value: text, allowed: allowed) }
        return choice
    }
}

/// Why the settings file cannot be used; each says which file, as one line.
enum ConfigFileError: Error, CustomStringConvertible {
    case unreadable(path: String, underlying: any Error)
    case notUTF8(path: String)
    case syntax(path: String, line: Int, message: String)
    case unknownKey(path: String, key: String, known: [String])
    case notAString(path: String, key: String, allowed: [String])
    case badValue(path: String, key: String, value: String, allowed: [String])
    case notATable(path: String, key: String)
    case notABool(path: String, key: String)

    var description: String {
        switch self {
        case .unreadable(let path, let underlying): "cannot read \(path): \(underlying.localizedDescription)"
        case .notUTF8(let path): "\(path) is not UTF-8 text"
        case .syntax(let path, let line, let message): "\(path):\(line): \(message)"
        case .unknownKey(let path, let key, let known): "\(path): unknown setting \"\(key)\" (known: \(known.joined(separator: ", ")))"
        case .notAString(let path, let key, let allowed): "\(path): \(key) must be a string: one of \(allowed.joined(separator: ", "))"
        case .badValue(let path, let key, let value, let allowed):
            "\(path): \(key) = \"\(value)\" is not one of \(allowed.joined(separator: ", "))"
        case .notATable(let path, let key): "\(path): \(key) must be a table: [\(key)] and its settings below it"
        case .notABool(let path, let key): "\(path): \(key) must be true or false"
        }
    }
}
