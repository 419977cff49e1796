import Chapter4SerialQueues
import Testing
import WorkbookTestSupport

@Suite("4.1 TokenStore.token — a serial queue as a lock")
struct Exercise4_1Tests {
    @Test("a token set is read back, and nil clears it")
    func readsBackWhatWasSet() {
        let store = TokenStore()
        #expect(store.token == nil, "a new store must hold no token")
        store.token = "abc"
        #expect(store.token == "abc", "after token = \"abc\", token reads \(String(describing: store.token))")
        store.token = nil
        #expect(store.token == nil, "after token = nil, token reads \(String(describing: store.token))")
    }

    @Test("two threads replace the token while two others read it")
    func readersAndWritersAtOnce() {
        let store = Unchecked(TokenStore())
        let strange = Tally<String>()
        runConcurrently(threads: 4, iterations: 1_000, "reading and writing the token") { thread, iteration in
            if thread < 2 {
                store.value.token = "t\(thread)-\(iteration)"
            } else if let seen = store.value.token, !seen.hasPrefix("t") {
                strange.append(seen)
            }
        }
        #expect(strange.all.isEmpty, "readers saw tokens nobody wrote: \(strange.all.prefix(3))")
        let last = store.value.token
        #expect(last == "t0-999" || last == "t1-999",
                "after both writers finished, token is \(String(describing: last)); it must be the last value one of them wrote")
    }
}
