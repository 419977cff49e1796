/// A flag, declared once: its name, the kind of value it takes (and so its type, how that is checked,
/// and what it is when the flag is not given), and its help. `Value` is what a command reads:
/// `Bool` for a switch, `Int` for a count, `Double` for seconds, `String?` for a path or a text.
struct Flag<Value: Sendable>: Sendable {
    let name: String
    let short: String?
    let kind: Kind
    let help: String

    init(_ name: String, short: String? = nil, _ kind: Kind, help: String) {
        self.name = name
        self.short = short
        self.kind = kind
        self.help = help
    }

    /// What a flag takes after it, and how that becomes its value.
    struct Kind: Sendable {
        /// How the help shows the value (`N` in `--runs N`); `nil` for a switch, which takes none.
        let valueName: String?
        /// The value when the flag is not given.
        let absent: Value
        /// What a value must be, for the error when it is not ("a whole number above zero"); `nil`
        /// when any text but none will do.
        let expected: String?
        /// The value of the text given, or `nil` when it is not one; a switch's is its presence.
        let read: @Sendable (String) -> Value?
    }

    /// `--runs N`
    var synopsis: String { kind.valueName.map { "\(name) \($0)" } ?? name }
}

extension Flag where Value == Bool {
    /// A switch: present or not.
    init(_ name: String, short: String? = nil, help: String) {
        self.init(name, short: short, Kind(valueName: nil, absent: false, expected: nil, read: { _ in true }), help: help)
    }
}

extension Flag.Kind where Value == Int {
    /// A whole number above zero.
    static func count(default fallback: Int) -> Self {
        Self(valueName: "N", absent: fallback, expected: "a whole number above zero") { text in
            Int(text).flatMap { $0 > 0 ? $0 : nil }
        }
    }
}

extension Flag.Kind where Value == Double {
    /// A number of seconds above zero.
    static func seconds(default fallback: Double) -> Self {
        Self(valueName: "SECONDS", absent: fallback, expected: "a number of seconds above zero") { text in
            Double(text).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        }
    }
}

extension Flag.Kind where Value == String? {
    /// A file's path.
    static var path: Self { text(name: "PATH") }

    /// Any text, checked by the command; `name` is how the help shows it (e.g. `K/N`).
    static func text(name: String) -> Self {
        Self(valueName: name, absent: nil, expected: nil) { text in text.isEmpty ? .none : .some(text) }
    }
}

/// A flag of any type, as parsing and `--help` see a command's list of them.
struct AnyFlag: Sendable {
    let name: String
    let short: String?
    let help: String
    let synopsis: String
    /// Whether it takes a value after it (`--runs 3`), or is a switch.
    let takesValue: Bool
    /// Reads the text given with it into its typed value, or says what is wrong with the text.
    let read: @Sendable (String) throws -> any Sendable

    init<Value>(_ flag: Flag<Value>) {
        name = flag.name
        short = flag.short
        help = flag.help
        synopsis = flag.synopsis
        takesValue = flag.kind.valueName != nil
        read = { text in
            if let value = flag.kind.read(text) { return value }
            guard let expected = flag.kind.expected else {
                throw UsageError(message: "\(flag.name) needs a value: \(flag.synopsis).")
            }
            throw UsageError(message: "\(flag.name) takes \(expected), not '\(text)'.")
        }
    }
}

/// The flags a command takes, declared once as the stored properties of one type, in the order its
/// usage and help list them (found as swift-argument-parser finds its options, by reflection). A
/// command reads them through their key paths (`arguments[\.runs]`), so a flag it did not declare, or
/// a value of another kind than the flag's, does not compile.
protocol FlagSet: Sendable {
    init()
}

extension FlagSet {
    /// Every flag, in the order declared.
    static var declared: [AnyFlag] {
        Mirror(reflecting: Self()).children.compactMap { ($0.value as? any Declared)?.erased }
    }
}

/// A flag, whatever its type, as a ``FlagSet``'s reflection finds it.
private protocol Declared {
    var erased: AnyFlag { get }
}

extension Flag: Declared {
    fileprivate var erased: AnyFlag { AnyFlag(self) }
}
