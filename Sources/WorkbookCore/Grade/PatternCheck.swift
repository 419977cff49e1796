import Foundation

/// A known GCD anti-pattern found in a learner's file: a warning beside the verdict, or, for the
/// rules that are wrong whatever the tests see (``PatternCheck/Rule/failure``), a finding.
package struct PatternWarning: Sendable, Equatable, Codable {
    /// A short stable name, e.g. `sync-on-global-queue`.
    package var rule: String
    package var line: Int
    package var message: String

    package init(rule: String, line: Int, message: String) {
        self.rule = rule
        self.line = line
        self.message = message
    }
}

/// A light source check for the anti-patterns the lessons teach, which a test may not provoke in a
/// given run. It reads lines, not syntax trees: it looks for the shapes the lessons show, after
/// removing comments and string literals, and follows a queue through simple `let`/`var` names.
package enum PatternCheck {
    /// The warnings for `source`, in line order: what the rules that only warn found.
    package static func warnings(in source: String) -> [PatternWarning] {
        matches(in: source).filter { Rule(rawValue: $0.rule)?.failure == nil }
    }

    /// What the rules that fail an exercise found in `source` (the file at `file`, relative to the
    /// package), whatever its tests say: added to every run's verdict. `noDeadline`: the exercise's
    /// contract takes no timeout (``Exercise/takesNoDeadline``), so a wait that gives up is wrong.
    package static func failures(in source: String, file: String, noDeadline: Bool = false) -> [Finding] {
        matches(in: source, noDeadline: noDeadline).compactMap { match in
            Rule(rawValue: match.rule)?.failure.map { Finding(kind: $0, message: match.message, file: file, line: match.line) }
        }
    }

    /// Whether `source` holds a form the Thread Sanitizer cannot judge (``Rule/setsAsideRuns``), so
    /// that what its runs found is set aside for the rule's own sentence.
    package static func setsAsideRuns(in source: String) -> Bool {
        matches(in: source).contains { Rule(rawValue: $0.rule)?.setsAsideRuns == true }
    }

    /// What every rule found in `source`, in line order; `noDeadline` as for ``failures(in:file:noDeadline:)``.
    static func matches(in source: String, noDeadline: Bool = false) -> [PatternWarning] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map { stripped(String($0)) }
        let globals = globalQueueNames(lines)
        var warnings: [PatternWarning] = []
        func warn(_ rule: Rule, _ index: Int, _ name: String = "") {
            warnings.append(PatternWarning(rule: rule.rawValue, line: index + 1, message: Says.pattern(rule, queue: name)))
        }
        // Every brace open at this point: the queue whose block it opens, or `nil` for a closure
        // that runs who knows where, or "transparent" control flow (an `if`, a `func` body).
        var open: [Brace] = []
        // Untimed waits inside a queue's block, and the queues whose blocks signal or leave: a wait
        // on a queue that its own signaller needs is stuck for good.
        var waits: [(line: Int, block: QueueBlock)] = []
        var signals: [QueueBlock] = []
        var blocksOpened = 0
        // For each open brace, whether it opens a `while` or `repeat` loop: a timed wait inside one
        // can wait again — and whether it opens a `for` loop, which runs out.
        var loops: [Bool] = []
        var forLoops: [Bool] = []
        // For each open brace, whether it opens an initializer or a deinitializer, where a property
        // is set before (or after) any other thread can see it.
        var setup: [Bool] = []
        // Stored properties, each read and change of one with the queue blocks open around it.
        let properties = storedProperties(lines)
        var reads: [(name: String, queues: Set<String>, line: Int)] = []
        var changes: [(name: String, queues: Set<String>, inSetup: Bool, line: Int)] = []
        // Private helpers, and where each is called from, with the queue blocks open there: a helper
        // called only on a queue runs on it (4.4's "private helpers assume").
        let helpers = privateFunctions(lines)
        var helperCalls: [(name: String, queues: Set<String>, line: Int)] = []
        for (index, line) in lines.enumerated() {
            let found = calls(in: line)
            for call in found {
                let onGlobal = call.receiver.hasPrefix("DispatchQueue.global(") || globals.contains(call.receiver)
                if call.method == "sync" {
                    if onGlobal && !call.barrier { warn(.syncOnGlobalQueue, index) }
                    if call.receiver == "DispatchQueue.main" { warn(.mainSync, index) }
                    if open.contains(where: { $0.queue == call.receiver }) { warn(.syncOntoOwnQueue, index, call.receiver) }
                }
                if onGlobal && call.barrier { warn(.barrierOnGlobalQueue, index) }
            }
            if noDeadline, Self.givesUp(line) && !loops.contains(true)
                || Self.timer(line) || (Self.pollsOnce(line) && forLoops.contains(true) && !loops.contains(true)) {
                warn(.timedWaitGivesUp, index)
            } else if Self.timedWait(line)?.argument.hasPrefix("distantFuture)") == true {
                // No timeout at all: there is no result to look at.
            } else if line.range(of: #"^\s*_\s*=\s*[A-Za-z_][A-Za-z0-9_.]*\.wait\(\s*(timeout|wallTimeout):"#, options: .regularExpression) != nil
                || (line.range(of: #"^\s*[A-Za-z_][A-Za-z0-9_.]*\.wait\(\s*(timeout|wallTimeout):"#, options: .regularExpression) != nil
                    && !Self.isImplicitReturn(lines, index)) {
                warn(.ignoredTimedWait, index)
            }
            if line.range(of: #"@_cdecl\b|@_silgen_name\b|\b__tsan_|\b__sanitizer_"#, options: .regularExpression) != nil {
                warn(.sanitizerHook, index)
            }
            if line.range(of: #"\batomicMemoryFence\s*\("#, options: .regularExpression) != nil {
                warn(.unseenFence, index)
            }
            if line.range(of: #"\bDispatchWorkItem\s*\([^)]*flags:[^)]*\.barrier"#, options: .regularExpression) != nil
                || calls(in: line).contains(where: { $0.method == "async" && $0.barrier && $0.droppedBarrier }) {
                warn(.unseenBarrier, index)
            }
            let uses = propertyUses(of: properties, in: line)
            let callsOfHelpers = helpers.keys.flatMap { name in offsets(of: #"(?<![A-Za-z0-9_])(?:self\.)?"# + name + #"\("#, in: line).map { (name, $0) } }
            let untimedWaits = offsets(of: #"\.wait\(\s*\)"#, in: line)
            let signalOffsets = offsets(of: #"\.(signal|leave)\(\s*\)"#, in: line)
            let controlFlow = line.range(of: #"\b(if|else|for|while|guard|switch|do|defer|catch|repeat|func|init|deinit|get|set|willSet|didSet|class|struct|extension|enum|actor|protocol)\b"#,
                                         options: .regularExpression) != nil
            // Offsets in UTF-16 units, as NSRegularExpression gives them.
            for (offset, unit) in line.utf16.enumerated() {
                for (name, at) in callsOfHelpers where at == offset {
                    helperCalls.append((name, Set(open.compactMap(\.queue)), index))
                }
                for use in uses where use.offset == offset {
                    let queues = Set(open.compactMap(\.queue))
                    if use.changes {
                        changes.append((use.name, queues, setup.contains(true), index))
                    } else {
                        reads.append((use.name, queues, index))
                    }
                }
                if let block = Self.currentBlock(open) {
                    if untimedWaits.contains(offset) { waits.append((index, block)) }
                    if signalOffsets.contains(offset) { signals.append(block) }
                }
                if unit == 0x7B /* { */ {
                    loops.append(line.range(of: #"\b(while|repeat)\b"#, options: .regularExpression) != nil)
                    forLoops.append(line.range(of: #"\bfor\b.*\bin\b"#, options: .regularExpression) != nil)
                    setup.append(line.range(of: #"\b(init|deinit)\b"#, options: .regularExpression) != nil)
                    if let call = found.first(where: { $0.braceOffset == offset }) {
                        blocksOpened += 1
                        open.append(.queue(QueueBlock(queue: call.receiver, id: blocksOpened)))
                    } else {
                        open.append(controlFlow ? .transparent : .closure)
                    }
                } else if unit == 0x7D /* } */ {
                    _ = open.popLast()
                    _ = loops.popLast()
                    _ = forLoops.popLast()
                    _ = setup.popLast()
                }
            }
        }
        // Stuck when the signal is sent to the same queue from another block (in the same block, it
        // simply comes after the wait).
        for wait in waits where signals.contains(where: { $0.queue == wait.block.queue && $0.id != wait.block.id }) {
            warn(.waitOnQueue, wait.line, wait.block.queue)
        }
        // A property read on a queue and changed outside every block of that queue (an initializer
        // aside): nothing orders the change with the reads. TSan does not always see the pair — at
        // -Onone a value returned out of a `sync` block is copied where it does not look (M16) — so
        // the source says it.
        let assumed = assumedQueues(helpers, calls: helperCalls, lines: lines)
        func onQueues(_ queues: Set<String>, at line: Int) -> Set<String> {
            queues.union(helpers.filter { $0.value.body.contains(line) }.flatMap { assumed[$0.key] ?? [] })
        }
        let readsOnQueues = reads.map { ($0.name, onQueues($0.queues, at: $0.line), $0.line) }
        for change in changes where !change.inSetup {
            guard let read = readsOnQueues.first(where: { $0.0 == change.name && !$0.1.isEmpty }),
                  onQueues(change.queues, at: change.line).isDisjoint(with: read.1) else { continue }
            warnings.append(PatternWarning(rule: Rule.changedOffItsQueue.rawValue, line: change.line + 1,
                                           message: Says.changedOffItsQueue(change.name, queue: read.1.sorted()[0], readAt: read.2 + 1)))
        }
        for (line, queue) in queuesMadeOnEveryCall(in: source) {
            warn(.queuePerCall, line - 1, queue)
        }
        return warnings.sorted { $0.line < $1.line }
    }

    /// The queues made on every call, each with the line that makes it: a `DispatchQueue(…)` created
    /// in a function's or a closure's own code and used only there — `let queue = DispatchQueue(…)`
    /// then `queue.sync`/`queue.async` in the same code, never captured by a closure that outlives the
    /// call — or `DispatchQueue(…).sync` in place. Each call then has a queue of its own, which
    /// orders nothing between calls. A queue made once per object (a stored property) or once per
    /// returned block (a `let` the block captures) is not one.
    static func queuesMadeOnEveryCall(in text: String) -> [(line: Int, queue: String)] {
        let source = SwiftSource(text)
        let code = String(decoding: source.code, as: UTF8.self)
        var found: [(line: Int, queue: String)] = []
        for match in code.matches(of: /DispatchQueue\s*\(/) {
            let offset = code.utf8.distance(from: code.startIndex, to: match.range.lowerBound)
            guard let owner = source.codeScope(around: offset) else { continue }  // a stored property
            let before = code[..<match.range.lowerBound]
            let after = code[match.range.upperBound...]
            if let call = after.firstMatch(of: /^[^()]*(?:\([^()]*\)[^()]*)*\)\s*\.\s*(sync|async|asyncAfter)\b/), call.range.lowerBound == after.startIndex {
                found.append((source.line(of: offset), "DispatchQueue(…)"))
            } else if let binding = before.firstMatch(of: /(?:let|var)\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*DispatchQueue\s*)?=\s*$/) {
                let name = String(binding.1)
                let uses = source.uses(in: owner).filter { $0.name == name && !$0.isDeclaration }
                let dispatched = uses.contains { use in
                    let rest = code.utf8.dropFirst(use.offset + name.utf8.count)
                    return String(decoding: rest.prefix(24), as: UTF8.self).firstMatch(of: /^\s*\.\s*(sync|async|asyncAfter)\b/) != nil
                }
                // Captured by code nested in the one that made it (a block it returns, a callback):
                // the queue outlives the call.
                let capturedInside = source.scopes.indices.contains { nested in
                    nested != owner && source.scopes[nested].isCode && source.scopes[nested].open > source.scopes[owner].open
                        && source.scopes[nested].close < source.scopes[owner].close
                        && source.uses(in: nested).contains { $0.name == name }
                }
                if dispatched && !capturedInside { found.append((source.line(of: offset), name)) }
            }
        }
        return found
    }

    /// `true` when `line` waits with a timeout that can run out — not `.now()` (a try that never
    /// waits), not `.distantFuture` (no timeout at all) — outside a `while` condition (which waits
    /// again). Every timed wait a learner can reach counts: Dispatch's `wait(timeout:)` and
    /// `wait(wallTimeout:)`, Foundation's `wait(until:)` (`NSCondition`, `NSConditionLock`) and
    /// `lock(before:)` / `lock(whenCondition:before:)` (`NSLock` and its kin).
    static func givesUp(_ line: String) -> Bool {
        if let (before, argument) = timedWait(line) {
            guard !argument.hasPrefix("now())"), !argument.hasPrefix("distantFuture)") else { return false }
            return before.range(of: #"\bwhile\b"#, options: .regularExpression) == nil
        }
        guard let range = line.range(of: #"\.(wait\(\s*until|lock\(\s*before|lock\(\s*whenCondition:[^)]*before)\s*:\s*"#, options: .regularExpression)
        else { return false }
        let argument = line[range.upperBound...].replacingOccurrences(of: " ", with: "")
        guard !argument.hasPrefix("Date.distantFuture"), !argument.hasPrefix(".distantFuture") else { return false }
        return line[..<range.lowerBound].range(of: #"\bwhile\b"#, options: .regularExpression) == nil
    }

    /// `true` when `line` sets a timer (`asyncAfter`): in a contract with no timeout, something that
    /// happens after a while is giving up on what it should have waited for.
    static func timer(_ line: String) -> Bool {
        line.range(of: #"\.asyncAfter\s*\(\s*(deadline|wallDeadline)\s*:"#, options: .regularExpression) != nil
    }

    /// `true` when `line` tries a wait without waiting (`wait(timeout: .now())`): a poll, which gives
    /// up when it is made a bounded number of times (in a `for` loop).
    static func pollsOnce(_ line: String) -> Bool {
        timedWait(line)?.argument.hasPrefix("now())") == true
    }

    /// A timed wait on `line`: the code before it, and its deadline without spaces or its type's
    /// name (`DispatchTime.now() + 1` → `now()+1)…`).
    static func timedWait(_ line: String) -> (before: Substring, argument: String)? {
        guard let range = line.range(of: #"\.wait\(\s*(timeout|wallTimeout):\s*(DispatchTime|DispatchWallTime)?\.?"#, options: .regularExpression) else { return nil }
        return (line[..<range.lowerBound], line[range.upperBound...].replacingOccurrences(of: " ", with: ""))
    }

    /// What an open brace stands for.
    enum Brace: Equatable {
        case queue(QueueBlock)
        case closure
        case transparent

        var queue: String? {
            if case let .queue(block) = self { return block.queue }
            return nil
        }
    }

    /// One block submitted to a queue, told apart from the other blocks sent to it.
    struct QueueBlock: Equatable {
        var queue: String
        var id: Int
    }

    /// The queue block the code at this point runs in, as far as the braces tell: the innermost
    /// one, unless a closure (which may run anywhere) opened inside it.
    static func currentBlock(_ open: [Brace]) -> QueueBlock? {
        for brace in open.reversed() {
            switch brace {
            case let .queue(block): return block
            case .closure: return nil
            case .transparent: continue
            }
        }
        return nil
    }

    /// A rule of the pattern check, by its name in warnings; what it says is in the catalog
    /// (``Says/pattern(_:queue:)``).
    enum Rule: String {
        case syncOnGlobalQueue = "sync-on-global-queue"
        case barrierOnGlobalQueue = "barrier-on-global-queue"
        case ignoredTimedWait = "ignored-timed-wait"
        case mainSync = "main-sync"
        case syncOntoOwnQueue = "sync-onto-own-queue"
        case waitOnQueue = "wait-on-queue"
        case sanitizerHook = "sanitizer-hook"
        case timedWaitGivesUp = "timed-wait-gives-up"
        case unseenFence = "fence-tsan-cannot-see"
        case unseenBarrier = "barrier-tsan-drops"
        case queuePerCall = "queue-per-call"
        case changedOffItsQueue = "changed-off-its-queue"

        /// Whether a run under TSan says nothing where this rule matched: a fence it does not model, a
        /// barrier its interceptor drops (the block then runs beside the others, under TSan only).
        /// A barrier on a global queue is ignored by libdispatch, but TSan takes the flag at its
        /// word: its interceptor orders every block along its queue's targets (compiler-rt
        /// `tsan_interceptors_libdispatch.cpp`, `dispatch_sync_pre_execute`/`_post_execute` walk
        /// `GetTargetQueueFromQueue`), and a concurrent queue made without a target targets the
        /// default global queue (libdispatch `src/queue.c`, `_dispatch_lane_create_with_target`).
        /// So it reports only when two blocks really overlap, and a run's verdict is luck — a race
        /// one run, a hang or a pass the next.
        var setsAsideRuns: Bool { self == .unseenFence || self == .unseenBarrier || self == .barrierOnGlobalQueue }

        /// How the exercise fails when the rule matches, whatever its tests say; `nil` for a warning.
        ///
        /// A timed wait whose result is never looked at goes on after its deadline as if it had
        /// been signalled: wrong at *any* timeout, while a test can only hold a callback for so long.
        /// In an exercise whose contract has no timeout, a wait that can time out is wrong whatever
        /// it does then — go on as if signalled, or drop the work — unless it waits again.
        /// A C-level symbol or a sanitizer hook in an exercise file can change what TSan reports
        /// (its default options and suppressions are such symbols).
        /// Two forms are right without TSan and cannot be judged under it, so the grader says so at
        /// their line instead of calling them a race: a standalone fence (TSan models none, so it
        /// reports the accesses the fence orders — compiler-rt's `__tsan_atomic_thread_fence` calls
        /// `AtomicFence`, "not implemented": a hardware fence, no happens-before), and a barrier flag
        /// that TSan's `dispatch_async` interceptor drops (it resubmits a
        /// wrapper of the block, and Swift's overlay sends a `DispatchWorkItem`'s, a group's or a QoS's
        /// barrier through a work item: MEASUREMENTS.md M4).
        /// A barrier on a global queue excludes nobody (Apple's documentation of
        /// `dispatch_barrier_sync` and `dispatch_barrier_async`: on a global concurrent queue they
        /// behave like `dispatch_sync` and `dispatch_async`), whatever a run shows.
        var failure: FailureKind? {
            switch self {
            case .ignoredTimedWait, .sanitizerHook, .timedWaitGivesUp, .unseenFence, .unseenBarrier, .changedOffItsQueue,
                 .barrierOnGlobalQueue: .wrong
            case .syncOnGlobalQueue, .mainSync, .syncOntoOwnQueue, .waitOnQueue, .queuePerCall: nil
            }
        }
    }

    /// A `receiver.sync`/`receiver.async` call on one line.
    struct Call {
        var receiver: String
        var method: String
        var barrier: Bool
        /// A barrier flag given beside a group or a QoS, which Swift's overlay sends through a
        /// `DispatchWorkItem` (`src/swift/Queue.swift`), where TSan's interceptor drops it.
        var droppedBarrier = false
        /// Where the block's `{` is on the line, when the call's closure opens there.
        var braceOffset: Int?
    }

    /// The sync/async calls of a line, with their receivers (`queue`, `self.queue`,
    /// `DispatchQueue.global()`, `DispatchQueue.main`).
    static func calls(in line: String) -> [Call] {
        let pattern = #"((?:DispatchQueue\.global\([^)]*\))|(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*))\.(sync|async)\b(\([^{]*)?\s*(\{)?"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let text = line as NSString
        return regex.matches(in: line, range: NSRange(location: 0, length: text.length)).map { match in
            var receiver = text.substring(with: match.range(at: 1))
            if receiver.hasPrefix("self.") { receiver = String(receiver.dropFirst(5)) }
            let arguments = match.range(at: 3).location == NSNotFound ? "" : text.substring(with: match.range(at: 3))
            return Call(receiver: receiver, method: text.substring(with: match.range(at: 2)),
                        barrier: arguments.contains(".barrier"),
                        droppedBarrier: arguments.contains(".barrier") && (arguments.contains("group:") || arguments.contains("qos:")),
                        braceOffset: match.range(at: 4).location == NSNotFound ? nil : match.range(at: 4).location)
        }
    }

    /// `true` when line `index` is the only line of a body — `{`, this line, `}` — so that its value
    /// is returned (`func wait(…) -> DispatchTimeoutResult { semaphore.wait(timeout: t) }`).
    static func isImplicitReturn(_ lines: [String], _ index: Int) -> Bool {
        let before = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let after = lines[(index + 1)...].first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return before?.trimmingCharacters(in: .whitespaces).hasSuffix("{") == true
            && after?.trimmingCharacters(in: .whitespaces).hasPrefix("}") == true
    }

    /// Where `pattern` matches in `line`, in UTF-16 offsets.
    static func offsets(of pattern: String, in line: String) -> Set<Int> {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return Set(regex.matches(in: line, range: NSRange(location: 0, length: (line as NSString).length)).map(\.range.location))
    }

    /// The file's `private`/`fileprivate` functions, by name, with the lines of their bodies (0-based,
    /// the declaration's line included) and the queue a `dispatchPrecondition(condition: .onQueue(…))`
    /// in them asserts, if any.
    static func privateFunctions(_ lines: [String]) -> [String: (body: ClosedRange<Int>, asserted: String?)] {
        var found: [String: (ClosedRange<Int>, String?)] = [:]
        for (index, line) in lines.enumerated() {
            guard let match = line.firstMatch(of: /\b(?:private|fileprivate)\s+(?:static\s+)?func\s+([A-Za-z_][A-Za-z0-9_]*)/),
                  line.contains("{") else { continue }
            var depth = 0, end = index
            search: for (offset, text) in lines[index...].enumerated() {
                for character in text {
                    if character == "{" { depth += 1 }
                    if character == "}" { depth -= 1; if depth == 0 { end = index + offset; break search } }
                }
            }
            let asserted = lines[index...end].lazy.compactMap { $0.firstMatch(of: /dispatchPrecondition\(\s*condition:\s*\.onQueue\(\s*(?:self\.)?([A-Za-z_][A-Za-z0-9_]*)\s*\)/) }
                .first.map { String($0.1) }
            found[String(match.1)] = (index...end, asserted)
        }
        return found
    }

    /// The queues each private helper can count on running on: the one it asserts, or those open at
    /// every one of its calls (directly, or through the helper it is called from). None for a helper
    /// nobody calls.
    static func assumedQueues(_ helpers: [String: (body: ClosedRange<Int>, asserted: String?)],
                              calls: [(name: String, queues: Set<String>, line: Int)], lines: [String]) -> [String: Set<String>] {
        var assumed: [String: Set<String>] = [:]
        for _ in 0..<4 {
            for (name, helper) in helpers {
                let mine = calls.filter { $0.name == name && !helper.body.contains($0.line) }
                var common: Set<String>? = nil
                for call in mine {
                    let around = helpers.filter { $0.key != name && $0.value.body.contains(call.line) }.flatMap { assumed[$0.key] ?? [] }
                    let queues = call.queues.union(around)
                    common = common.map { $0.intersection(queues) } ?? queues
                }
                assumed[name] = (common ?? []).union(helper.asserted.map { [$0] } ?? [])
            }
        }
        return assumed
    }

    /// The stored `var`s declared in a type's body (one brace deep, with no `{` of their own: not a
    /// computed property), by name.
    static func storedProperties(_ lines: [String]) -> Set<String> {
        var names = Set<String>()
        var depth = 0
        for line in lines {
            if depth == 1, !line.contains("{"), !line.contains("lazy "),
               let match = line.firstMatch(of: /^\s*(?:(?:private|fileprivate|internal|public|package|static|nonisolated\(unsafe\))(?:\(set\))?\s+)*var\s+([A-Za-z_][A-Za-z0-9_]*)/) {
                names.insert(String(match.1))
            }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
        }
        return names
    }

    /// Where `line` uses one of `names`, in UTF-16 offsets: whether the use changes it (`x = …`,
    /// `x += …`, `x[k] = …`, `x.append(…)` and the other mutating calls of collections) or reads it.
    /// A declaration is neither.
    static func propertyUses(of names: Set<String>, in line: String) -> [(name: String, offset: Int, changes: Bool)] {
        guard !names.isEmpty, line.range(of: #"^\s*(?:[a-z()]+\s+)*(var|let)\s"#, options: .regularExpression) == nil else { return [] }
        let text = line as NSString
        var uses: [(String, Int, Bool)] = []
        for name in names {
            let escaped = NSRegularExpression.escapedPattern(for: name)
            guard let regex = try? NSRegularExpression(pattern: #"(?<![A-Za-z0-9_$.])(?:self\.)?"# + escaped + #"\b(?!\s*:)"#) else { continue }
            for match in regex.matches(in: line, range: NSRange(location: 0, length: text.length)) {
                let after = text.substring(from: match.range.location + match.range.length)
                let changes = after.range(of: #"^\s*(=(?!=)|\+=|-=|\*=|/=|\[[^\]]*\]\s*=(?!=)|\.(append|insert|remove[A-Za-z]*|pop[A-Za-z]*|merge|updateValue)\()"#,
                                          options: .regularExpression) != nil
                uses.append((name, match.range.location, changes))
            }
        }
        return uses
    }

    /// Names bound to a global queue: `let queue = DispatchQueue.global(qos: .utility)`.
    static func globalQueueNames(_ lines: [String]) -> Set<String> {
        var names = Set<String>()
        let pattern = #"(?:let|var)\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*DispatchQueue\s*)?=\s*DispatchQueue\.global\("#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return names }
        for line in lines {
            let text = line as NSString
            for match in regex.matches(in: line, range: NSRange(location: 0, length: text.length)) {
                names.insert(text.substring(with: match.range(at: 1)))
            }
        }
        return names
    }

    /// The line without its `//` comment and with string literals emptied.
    static func stripped(_ line: String) -> String {
        var out = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if !inString && character == "/" && previous == "/" {
                out.removeLast()
                break
            }
            if character == "\"" && previous != "\\" { inString.toggle(); out.append(character) }
            else if !inString { out.append(character) }
            previous = character
        }
        return out
    }
}
