import Foundation
import Testing
@testable import WorkbookCore
import WorkbookEngineTestSupport

/// The source rule that closes the -Onone blind spot: a property read on a queue and changed off it.
@Suite("Pattern rule: a property read on its queue and changed off it")
struct ChangedOffItsQueueTests {
    func rules(_ source: String) -> [Int] {
        PatternCheck.matches(in: source).filter { $0.rule == PatternCheck.Rule.changedOffItsQueue.rawValue }.map(\.line)
    }

    @Test("a setter under its own lock, or none, against a getter through the queue: at the setter's line")
    func setterOffTheQueue() {
        let source = """
            final class TokenStore {
                let queue = DispatchQueue(label: "q")
                var cachedToken: String?
                private let lock = NSLock()
                public var token: String? {
                    get { queue.sync { cachedToken } }
                    set { lock.withLock { cachedToken = newValue } }
                }
                func clear() {
                    cachedToken = nil
                }
            }
            """
        #expect(rules(source) == [7, 10])
        #expect(PatternCheck.failures(in: source, file: "T.swift").count == 2)
    }

    @Test("changes on the queue — sync, async, a barrier, inside a closure in the block — and in init are fine")
    func changesOnTheQueue() {
        let source = """
            final class Cache {
                private let queue = DispatchQueue(label: "q", attributes: .concurrent)
                private var storage: [String: String] = [:]
                private var count = 0
                init(seed: [String: String]) {
                    storage = seed
                }
                func value(forKey key: String) -> String? { queue.sync { storage[key] } }
                func set(_ value: String?, forKey key: String) {
                    queue.async(flags: .barrier) { self.storage[key] = value }
                    queue.sync { count += 1 }
                    queue.async { [weak self] in
                        self?.count -= 1
                    }
                }
                var total: Int { queue.sync { count } }
            }
            """
        #expect(rules(source).isEmpty)
    }

    @Test("a private helper runs where it is called: only on the queue, it may change what the queue guards; called once off it, it may not")
    func helpers() {
        let onlyOnTheQueue = """
            final class Log {
                private let queue = DispatchQueue(label: "q")
                private var buffer: [String] = []
                func record(_ event: String) -> [String]? {
                    queue.sync { buffer.append(event); return buffer.count > 2 ? takeAll() : nil }
                }
                func flush() -> [String] { queue.sync { takeAll() } }
                private func takeAll() -> [String] {
                    defer { buffer.removeAll() }
                    return buffer
                }
            }
            """
        #expect(rules(onlyOnTheQueue).isEmpty)
        let onceOff = onlyOnTheQueue.replacingOccurrences(of: "func flush() -> [String] { queue.sync { takeAll() } }",
                                                          with: "func flush() -> [String] { takeAll() }")
        #expect(rules(onceOff) == [9])
    }

    @Test("no reference solution, correct alternative or starter trips it")
    func noFalseAlarms() throws {
        let root = Fixture.packageRoot
        var files: [String] = []
        for set in ["Solutions", "Tests/Starters"] {
            for chapter in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(set).path) {
                let folder = root.appendingPathComponent("\(set)/\(chapter)")
                for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where file.hasSuffix(".swift") {
                    files.append("\(set)/\(chapter)/\(file)")
                }
            }
        }
        let nearMisses = root.appendingPathComponent("Tests/NearMisses")
        for chapter in try FileManager.default.contentsOfDirectory(atPath: nearMisses.path) {
            for file in try FileManager.default.contentsOfDirectory(atPath: nearMisses.appendingPathComponent(chapter).path) where file.contains("-alt-") {
                files.append("Tests/NearMisses/\(chapter)/\(file)")
            }
        }
        #expect(files.count > 60)
        for file in files {
            let source = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            #expect(rules(source).isEmpty, "\(file): \(rules(source))")
        }
    }

    @Test("the near misses it catches are those that change what they read on a queue off it")
    func nearMisses() throws {
        let folder = Fixture.packageRoot.appendingPathComponent("Tests/NearMisses")
        var caught: [String] = []
        for chapter in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(chapter).path).sorted() where !file.contains("-alt-") {
                let source = try String(contentsOf: folder.appendingPathComponent("\(chapter)/\(file)"), encoding: .utf8)
                if !rules(source).isEmpty { caught.append(file) }
            }
        }
        print("changed-off-its-queue catches: \(caught)")
        #expect(caught.contains("4.1-setter-own-lock.swift"))
    }
}
