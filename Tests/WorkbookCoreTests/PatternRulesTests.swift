import Foundation
import Testing
@testable import WorkbookCore

/// The rules that fail an exercise by themselves, on every form a learner can write them in: a
/// timed give-up through any API, and the two forms TSan cannot judge.
@Suite("Pattern rules: every timed API gives up alike; forms TSan cannot judge are said, not called races")
struct PatternRulesTests {
    func rules(_ source: String, noDeadline: Bool = true) -> [String] {
        PatternCheck.failures(in: source, file: "X.swift", noDeadline: noDeadline).compactMap { finding in
            PatternCheck.matches(in: source, noDeadline: noDeadline).first { $0.line == finding.line }?.rule
        }
    }

    @Test("in a contract with no timeout, Foundation's timed waits and locks give up like wait(timeout:)",
          arguments: ["_ = condition.wait(until: Date().addingTimeInterval(30))",
                      "if !condition.wait(until: Date() + 5) { return }",
                      "guard lock.lock(before: Date(timeIntervalSinceNow: 2)) else { return }",
                      "_ = gate.lock(whenCondition: 1, before: Date() + 1)"])
    func foundationTimedWaits(line: String) {
        #expect(rules("func f() {\n    \(line)\n}") == ["timed-wait-gives-up"])
        #expect(rules("func f() {\n    \(line)\n}", noDeadline: false).isEmpty, "a contract with a timeout may time out")
    }

    @Test("waiting again, or for ever, is no giving up")
    func waitsAgain() {
        #expect(rules("func f() {\n    while !ready {\n        _ = condition.wait(until: Date() + 1)\n    }\n}").isEmpty)
        #expect(rules("func f() {\n    condition.wait(until: .distantFuture)\n}").isEmpty)
        #expect(rules("func f() {\n    _ = condition.wait(until: Date.distantFuture)\n}").isEmpty)
        #expect(rules("func f() {\n    while group.wait(timeout: .now()) == .timedOut { usleep(1_000) }\n}").isEmpty,
                "a poll that goes on until it succeeds never gives up")
    }

    @Test("a timer in a contract with no timeout gives up")
    func timers() {
        #expect(rules("func f() {\n    queue.asyncAfter(deadline: .now() + 10) { completion() }\n}") == ["timed-wait-gives-up"])
        #expect(rules("func f() {\n    queue.asyncAfter(wallDeadline: .now() + 10) { completion() }\n}") == ["timed-wait-gives-up"])
        #expect(rules("func f() {\n    queue.asyncAfter(deadline: .now() + 10) { completion() }\n}", noDeadline: false).isEmpty)
    }

    @Test("a poll tried a fixed number of times gives up")
    func boundedPolls() {
        let source = """
            func f() {
                for _ in 0..<100 {
                    if group.wait(timeout: .now()) == .success { break }
                    usleep(20_000)
                }
                queue.async(execute: completion)
            }
            """
        #expect(rules(source) == ["timed-wait-gives-up"])
        #expect(PatternCheck.matches(in: source, noDeadline: true).first?.line == 3)
    }

    @Test("a standalone fence and a barrier that TSan drops fail at their line, with what to write instead",
          arguments: [("atomicMemoryFence(ordering: .acquiring)", "fence-tsan-cannot-see"),
                      ("let write = DispatchWorkItem(flags: .barrier) { storage[key] = value }", "barrier-tsan-drops"),
                      ("queue.async(group: group, flags: .barrier) { storage[key] = value }", "barrier-tsan-drops"),
                      ("queue.async(qos: .userInitiated, flags: .barrier) { storage[key] = value }", "barrier-tsan-drops")])
    func uncheckableForms(line: String, rule: String) throws {
        #expect(rules("func f() {\n    \(line)\n}", noDeadline: false) == [rule])
        let message = try #require(PatternCheck.matches(in: "func f() {\n    \(line)\n}").first?.message)
        #expect(message.contains("Thread Sanitizer") && (message.contains("async(flags: .barrier)") || message.contains("ordering")))
    }

    @Test("a barrier on a global queue fails at its line, directly or through a name, and sets the runs aside: TSan takes the flag at its word",
          arguments: ["DispatchQueue.global().sync(flags: .barrier) { storage[key] = value }",
                      "DispatchQueue.global(qos: .utility).async(flags: .barrier) { storage[key] = value }",
                      "let shared = DispatchQueue.global()\n    shared.sync(flags: .barrier) { storage[key] = value }"])
    func barrierOnAGlobalQueue(line: String) {
        let source = "func f() {\n    \(line)\n}"
        let failures = PatternCheck.failures(in: source, file: "Exercises/Chapter4SerialQueues/SettingsCache.swift")
        #expect(failures.map(\.kind) == [.wrong])
        #expect(failures.first?.line == source.split(separator: "\n").firstIndex { $0.contains(".barrier") }.map { $0 + 1 })
        #expect(PatternCheck.setsAsideRuns(in: source))
        #expect(!PatternCheck.setsAsideRuns(in: "func f() {\n    queue.sync(flags: .barrier) { storage[key] = value }\n}"))
    }

    @Test("the barriers TSan sees are fine: async(flags:) alone, sync(flags:)")
    func checkableBarriers() {
        #expect(rules("func f() {\n    queue.async(flags: .barrier) { storage[key] = value }\n}", noDeadline: false).isEmpty)
        #expect(rules("func f() {\n    queue.sync(flags: .barrier) { storage[key] = value }\n}", noDeadline: false).isEmpty)
    }
}
