import Dispatch
import Foundation
import WorkbookTestSupport
import WorkbookWire

// 4.1's token, 4.3's settings and 4.5's token are one kind of object: registers (one per key) that
// any thread may read and set. Their contracts share three clauses — a read returns exactly a value
// some set stored (or the first value), never a mix; a read that starts after a set has returned
// sees that value or a later one, on any thread; nothing traps or hangs — and one explored
// scenario serves all three: callers on threads and every kind of queue (the main queue too),
// several at once, reads and sets mixed, values at their edges (nil where the type allows it, the
// empty string, a long one, one outside ASCII). A run records when each call began and returned
// on one clock, and the history is held to the clauses (a linearizability check on each key,
// as Lincheck makes it).

/// The values a set may store.
enum RegisterValue: String, CaseIterable, Sendable {
    /// `nil`: clears the token, or removes the key (only where the type allows it).
    case none
    case empty
    case short
    case long
    case unicode

    /// The value for the `number`-th set; distinct sets store distinct values, except `nil` and "".
    func text(_ number: Int) -> String? {
        switch self {
        case .none: nil
        case .empty: ""
        case .short: "t\(number)"
        case .long: "t\(number)-" + String(repeating: "x", count: 4_000)
        case .unicode: "t\(number)-é✓🧵"
        }
    }

    var phrase: String {
        switch self {
        case .none: "nil"
        case .empty: "the empty string"
        case .short: "a short token"
        case .long: "a 4 000-character token"
        case .unicode: "a token outside ASCII"
        }
    }
}

struct RegisterScenario: VariedScenario, CallersScenario {
    struct Call: Sendable, Equatable {
        /// `nil` for a read, else the value a set stores.
        var set: RegisterValue?
        var key: Int
    }

    typealias Caller = ScenarioCaller<Call>

    /// An exercise's registers: how many keys (4.1's and 4.5's token is one, 4.3's cache has three),
    /// and whether a set may store `nil` (4.5's `String` may not).
    struct Variant: Sendable {
        var keys: Int
        var storesNil = true

        /// The values a set may store.
        var values: [RegisterValue] { RegisterValue.allCases.filter { storesNil || $0 != .none } }
    }

    var keys: Int
    var callers: [Caller]

    var description: String {
        callers.map { caller in
            let reads = caller.calls.filter { $0.set == nil }.count
            let sets = caller.calls.compactMap(\.set)
            let kinds = Set(sets).sorted { $0.rawValue < $1.rawValue }.map(\.phrase).joined(separator: ", ")
            return "\(caller.site) reads \(reads) time\(reads == 1 ? "" : "s") and sets \(sets.count) time\(sets.count == 1 ? "" : "s")"
                + (sets.isEmpty ? "" : " (\(kinds))")
        }.joined(separator: "; ") + (keys > 1 ? "; over \(keys) keys" : "")
    }

    static func generate(_ random: inout Seeded, _ variant: Variant) -> RegisterScenario {
        let callers = Caller.generate(&random, counts: [1, 4, 10, 30]) { random in
            Call(set: random.chance(0.4) ? random.pick(variant.values) : nil, key: Int.random(in: 0..<variant.keys, using: &random))
        }
        return RegisterScenario(keys: variant.keys, callers: callers)
    }

    /// Corners: a writer and readers on the main queue and elsewhere, every value in turn.
    static func corners(_ variant: Variant) -> [RegisterScenario] {
        let keys = variant.keys
        let sets = variant.values.enumerated().map { Call(set: $0.element, key: $0.offset % keys) }
        let reads = (0..<12).map { Call(set: nil, key: $0 % keys) }
        return [
            RegisterScenario(keys: keys, callers: [Caller(site: .mainQueue, calls: sets + sets), Caller(site: .thread, calls: reads)]),
            RegisterScenario(keys: keys, callers: [Caller(site: .globalQueue, calls: sets), Caller(site: .mainQueue, calls: reads),
                                                   Caller(site: .concurrentQueue, calls: sets.reversed() + reads)]),
        ]
    }

    static func shrink(_ scenario: RegisterScenario) -> [RegisterScenario] {
        var smaller = Smaller(than: scenario, valid: { !$0.callers.isEmpty })
        smaller.withoutEachCaller(of: scenario)
        smaller.withSimplerCallers(of: scenario)
        return smaller.candidates
    }
}

/// The calls of one run on one clock: what each call was, when it began and when it returned.
final class RegisterHistory: @unchecked Sendable {
    struct Entry {
        var key: Int
        /// For a set, the value stored; for a read, the value returned.
        var value: String?
        var isSet: Bool
        var began: Int
        var returned: Int
    }

    private let lock = NSLock()
    private var clock = 0
    private var numbers = 0
    private(set) var entries: [Entry] = []

    /// A new number for a set's value.
    func nextNumber() -> Int { lock.withLock { defer { numbers += 1 }; return numbers } }

    /// Runs `call`, recording it with its key; `value` is what a set stores (`isSet`), and a read's
    /// value is what `call` returns.
    func record(key: Int, isSet: Bool, value: String?, _ call: () -> String?) {
        let began = lock.withLock { clock += 1; return clock }
        let result = call()
        lock.withLock {
            clock += 1
            entries.append(Entry(key: key, value: isSet ? value : result, isSet: isSet, began: began, returned: clock))
        }
    }

    /// The history held to the clauses: `initial` is every key's value before any set.
    func violation(initial: String?, what: String) -> Violation? {
        let all = lock.withLock { entries }
        for key in Set(all.map(\.key)) {
            let sets = all.filter { $0.isSet && $0.key == key }
            for read in all where !read.isSet && read.key == key {
                // The sets whose value the read returned, the first value standing as a set made
                // before everything.
                var sources = sets.filter { $0.value == read.value && $0.began < read.returned }
                if read.value == initial { sources.append(Entry(key: key, value: initial, isSet: true, began: -1, returned: 0)) }
                guard !sources.isEmpty else {
                    let shown = read.value.map { $0.count > 40 ? "\"\($0.prefix(30))…\" (\($0.count) characters)" : "\"\($0)\"" } ?? "nil"
                    return Violation(clause: "A read returns exactly a value some set stored (or the first value), never a mix.",
                                     observed: "\(what) returned \(shown), which no set stored.")
                }
                // Stale: every source was replaced, before the read began, by a set made after it returned.
                let stale = sources.allSatisfy { source in
                    sets.contains { later in later.began > source.returned && later.returned < read.began && later.value != read.value }
                }
                if stale {
                    return Violation(clause: "A read that starts after a set has returned sees that value (or a later one), on any thread.",
                                     observed: "\(what) returned a value that a later set had already replaced before the read began.")
                }
            }
        }
        return nil
    }
}

/// One run of `scenario` on a fresh object: `make()` builds it, `read(object, key)` and
/// `set(object, key, value)` are its two calls. Returns the first clause the history broke.
func runRegisters<Object: AnyObject>(
    _ scenario: RegisterScenario, initial: String?, what: String,
    make: @escaping @Sendable () -> Object,
    read: @escaping @Sendable (Object, Int) -> String?,
    set: @escaping @Sendable (Object, Int, String?) -> Void
) -> Violation? {
    guard let made = within(2, { Unchecked(make()) }) else {
        return Violation(clause: "Nothing traps or hangs.", observed: "making a new one did not return within 2 s.", timedOut: true)
    }
    let object = made
    let history = RegisterHistory()
    let callersDone = Signal()
    for caller in scenario.callers {
        let calls = caller.calls
        caller.site.start {
            for call in calls {
                if let kind = call.set {
                    let value = kind.text(history.nextNumber())
                    history.record(key: call.key, isSet: true, value: value) { set(object.value, call.key, value); return nil }
                } else {
                    history.record(key: call.key, isSet: false, value: nil) { read(object.value, call.key) }
                }
            }
            callersDone.fire()
        }
    }
    for _ in scenario.callers where !callersDone.happens(within: 2) {
        return Violation(clause: "It may be read and set from any thread, at any time, by several threads at once. Nothing traps or hangs.",
                         observed: "a caller's reads and sets did not all return within 2 s.", timedOut: true)
    }
    return history.violation(initial: initial, what: what)
}
