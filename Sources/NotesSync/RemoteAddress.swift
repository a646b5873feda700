import Foundation

/// A remote's address as sync may show it: in commit messages (which the remote keeps, and
/// anyone who clones it reads) and in messages on the terminal, never with the user name and
/// password a URL may carry (`https://user:token@host/…`), as git leaves them out of its own.
enum RemoteAddress {
    /// The address without the user information of a `scheme://user[:password]@host` URL;
    /// other addresses (a path, `user@host:path`, which holds no password) as they are.
    static func redacted(_ address: String) -> String {
        guard let scheme = address.range(of: "://") else { return address }
        let rest = address[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return address }
        return String(address[..<scheme.upperBound]) + String(rest[rest.index(after: at)...])
    }
}
