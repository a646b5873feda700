/// One screen's keys, each described once: the key(s), what they do, the help screen's words and
/// the hint bar's. Dispatch (`action(for:)`), the help screen (`helpLines`) and the hint bar
/// (`hints`) are all read from this one table, so they cannot disagree: adding a key to a screen
/// is adding one `KeyBinding` to its keymap (docs/architecture.md, "Adding a key").
struct Keymap<Action> {
    /// The heading of these keys on the help screen.
    let title: String
    /// Most important first: the hint bar shows as many of the hinted ones as fit, in this order.
    var bindings: [KeyBinding<Action>]
    /// What a key no binding names does (typed into a field, "any other key" answers no); nil:
    /// such keys do nothing.
    var otherKeys: OtherKeys<Action>?

    init(_ title: String, _ bindings: [KeyBinding<Action>], otherKeys: OtherKeys<Action>? = nil) {
        self.title = title
        self.bindings = bindings
        self.otherKeys = otherKeys
    }

    /// What the key does on this screen; nil when nothing.
    func action(for key: Key) -> Action? {
        for binding in bindings {
            if let action = binding.action(for: key) { return action }
        }
        return otherKeys?.action(key)
    }

    /// The same keys doing other actions: how a screen's keymap is seen without its action type
    /// (the help screen, the hint bar and the tests read every screen's alike).
    func map<Other>(_ transform: @escaping (Action) -> Other) -> Keymap<Other> {
        Keymap<Other>(title, bindings.map { $0.map(transform) }, otherKeys: otherKeys.map { other in
            OtherKeys<Other>(other.name, hint: other.hint) { other.action($0).map(transform) }
        })
    }
}

/// One line of a keymap: keys that share a description (↑ and ↓ are "move"), each with its action.
struct KeyBinding<Action> {
    /// The keys in the order the help names them, each with what it does.
    let keys: [(key: Key, action: Action)]
    /// The help screen's description.
    let help: String
    /// The hint bar's, nil when the bar does not show this binding.
    let hint: KeyHint?
    /// False when the version has no such thing (pins before v5): the help and the hint bar leave
    /// it out, but the key still dispatches, so that pressing it can say why nothing happens.
    var isListed = true

    /// Keys that all do the same.
    init(_ keys: Key..., does action: Action, help: String, hint: KeyHint? = nil) {
        self.init(keys.map { ($0, action) }, help: help, hint: hint)
    }

    /// Keys that do related things described together ("↑↓ move").
    init(_ keys: [(key: Key, action: Action)], help: String, hint: KeyHint? = nil) {
        self.keys = keys
        self.help = help
        self.hint = hint
    }

    /// Listed in the help and the hint bar only when `condition` holds (the version has the feature).
    func listed(when condition: Bool) -> Self {
        var binding = self
        binding.isListed = condition
        return binding
    }

    func action(for key: Key) -> Action? {
        keys.first { $0.key == key }?.action
    }

    func map<Other>(_ transform: (Action) -> Other) -> KeyBinding<Other> {
        var binding = KeyBinding<Other>(keys.map { ($0.key, transform($0.action)) }, help: help, hint: hint)
        binding.isListed = isListed
        return binding
    }
}

/// A binding's entry in the hint bar: its label, after the first of its keys (the bar is short:
/// "↑↓ move" leaves j and k to the help).
struct KeyHint: ExpressibleByStringLiteral {
    let label: String
    /// How many of the binding's keys the bar names, from the first; nil: all.
    let keyCount: Int?

    init(_ label: String, keys keyCount: Int? = nil) {
        self.label = label
        self.keyCount = keyCount
    }

    init(stringLiteral label: String) {
        self.init(label)
    }
}

/// The keys a keymap does not name one by one: characters typed into a field, or "any other key".
struct OtherKeys<Action> {
    /// What the hint bar calls them ("any other key", "type").
    let name: String
    /// The hint bar's label, nil when the bar does not mention them.
    let hint: String?
    let action: (Key) -> Action?

    init(_ name: String, hint: String? = nil, action: @escaping (Key) -> Action?) {
        self.name = name
        self.hint = hint
        self.action = action
    }
}
