import Chapter4SerialQueues
import Testing
import WorkbookTestSupport

@Suite("4.2 TokenStore.update(_:) — read, change and write in one step")
struct Exercise4_2Tests {
    /// The token, read through `update` only, so that these tests do not depend on exercise 4.1.
    static func token(of store: TokenStore) -> String? {
        var seen: String?
        store.update { seen = $0; return $0 }
        return seen
    }

    /// A transform that treats the token as a counter and adds one.
    static func addOne(_ token: String?) -> String? {
        String((token.flatMap { Int($0) } ?? 0) + 1)
    }

    @Test("update hands transform the current token and keeps what it returns; nil clears it")
    func transformsTheCurrentToken() {
        let store = TokenStore()
        let seen = Tally<String?>()
        store.update { seen.append($0); return "a" }
        store.update { seen.append($0); return ($0 ?? "") + "b" }
        store.update { seen.append($0); return nil }
        store.update { seen.append($0); return $0 }
        #expect(seen.all == [nil, "a", "ab", nil],
                "transform was given \(seen.all); it must get the token each earlier update left: [nil, \"a\", \"ab\", nil]")
    }

    @Test("two updates at the same moment: the second starts from the first one's result")
    func overlappingUpdates() {
        let store = Unchecked(TokenStore())
        let inTransform = [Signal(), Signal()]
        let meter = ConcurrencyMeter()
        runConcurrently(threads: 2, iterations: 1, "two update calls") { thread, _ in
            store.value.update { current in
                meter.enter()
                defer { meter.leave() }
                inTransform[thread].fire()
                // If the other update can run its transform now, let it: wait until it does, or
                // 0.25 s — which is what a correct update makes it do.
                _ = inTransform[1 - thread].happens(within: 0.25)
                return Self.addOne(current)
            }
        }
        #expect(meter.maximum == 1,
                "two update calls ran their transforms at the same time, so both started from the same old token. Each `queue.sync` is safe on its own; the gap between the read and the write is not.")
        let final = Self.token(of: store.value)
        #expect(final == "2", "two updates that each add one left the token at \(final ?? "nil"); it must be \"2\" — one update was lost")
    }

    @Test("four threads × 1 000 updates that each add one: none is lost")
    func noUpdateIsLost() {
        let store = Unchecked(TokenStore())
        runConcurrently(threads: 4, iterations: 1_000, "4 000 update calls") { _, _ in
            store.value.update(Self.addOne)
        }
        let final = Self.token(of: store.value).flatMap { Int($0) } ?? 0
        #expect(final == 4_000,
                "4 000 updates that each add one left the counter at \(final): \(4_000 - final) were lost. The Thread Sanitizer saw nothing, because every single access was on the queue — but another update ran between a read and its write.")
    }
}
