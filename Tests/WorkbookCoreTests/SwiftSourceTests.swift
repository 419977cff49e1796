import Foundation
import Testing
@testable import WorkbookCore

/// Reading a Swift file for its shape: what places a TSan frame that kept no line.
@Suite("A Swift file's shape: comments and strings blanked, braces told apart, closures by number")
struct SwiftSourceTests {
    static let latch = """
        import Foundation

        public func makeLatch(count: Int, whenZero: @escaping () -> Void) -> () -> Void {
            guard count > 0 else {
                whenZero()
                return {}
            }
            let lock = NSLock()  // a { in a comment
            var toComplete = count
            return {
                lock.lock()
                toComplete -= 1
                lock.unlock()
                let said = "{ \\(toComplete) }"
                if toComplete == 0 { whenZero() }
            }
        }

        public final class Counter {
            private var hits = 0
            public var value: Int { queue.sync { hits } }
            public var token: String? {
                get { nil }
                set { queue.sync { hits = 0 } }
            }
            init() {}
        }
        """

    @Test("comments and string literals are blanked at the same offsets; an interpolation's code is kept")
    func masking() {
        let source = SwiftSource(Self.latch)
        let code = String(decoding: source.code, as: UTF8.self)
        #expect(code.count == Self.latch.count)
        #expect(!code.contains("a { in a comment") && !code.contains("\"{"))
        #expect(code.contains("let said =      toComplete    \n"), "the interpolation is code, its delimiters are not")
        #expect(code.split(separator: "\n", omittingEmptySubsequences: false).count
            == Self.latch.split(separator: "\n", omittingEmptySubsequences: false).count)
        let raw = String(decoding: SwiftSource(##"let a = #"x { "y" }"#; let b = """\n{\n"""; /* { /* } */ */ let c = 1"##).code, as: UTF8.self)
        #expect(!raw.contains("{") && !raw.contains("}") && raw.contains("let c = 1"), "\(raw)")
    }

    @Test("each brace is told apart: a function, a closure, control flow, a type, a property and its accessors")
    func kinds() {
        let source = SwiftSource(Self.latch)
        let kinds = source.scopes.map(\.kind)
        #expect(kinds == [.function("makeLatch"), .control, .closure, .closure, .control, .type("Counter"), .property("value"),
                          .closure, .property("token"), .accessor("get"), .accessor("set"), .closure, .function("init")])
    }

    @Test("a symbol names its scope: a closure by its number among those written directly in its function, a getter, a setter")
    func closuresByNumber() throws {
        let source = SwiftSource(Self.latch)
        // `return {}` is closure #1 of makeLatch, the returned block #2.
        let block = try #require(source.scope(named: "closure #2 () -> () in Module.makeLatch(count: Swift.Int, whenZero: () -> ()) -> () -> ()"))
        #expect(source.line(of: source.scopes[block].open) == 10)
        #expect(source.scope(named: "closure #1 in makeLatch(count:whenZero:)").map { source.line(of: source.scopes[$0].open) } == 6, "as atos prints it")
        #expect(source.scope(named: "closure #3 in makeLatch(count:whenZero:)") == nil)
        let getter = try #require(source.scope(named: "closure #1 () -> Swift.Int in Module.Counter.value.getter : Swift.Int"))
        #expect(source.line(of: source.scopes[getter].open) == 21 && source.scopes[getter].kind == .closure)
        let setter = try #require(source.scope(named: "closure #1 in Counter.token.setter"))
        #expect(source.line(of: source.scopes[setter].open) == 24)
        #expect(source.declarationName(of: getter) == "value" && source.declarationName(of: block) == "makeLatch(…)")
    }

    @Test("the uses of a name in a scope's own code: writes (=, -=, mutating calls, through members) and reads, not those of nested closures")
    func uses() throws {
        let source = SwiftSource(Self.latch)
        let block = try #require(source.scope(named: "closure #2 in makeLatch(count:whenZero:)"))
        let uses = source.uses(in: block).filter { $0.name == "toComplete" }
        #expect(uses.map { source.line(of: $0.offset) } == [12, 14, 15])
        #expect(uses.map(\.isWrite) == [true, false, false])
        let writes = SwiftSource("""
            func f() {
                items[0] = 1; a.b = 2; list.append(3); swap(&x, &y); if c == d, e != g, h <= i {}
                let local = 4; self.count += 1; z?.w = 5
            }
            """)
        let written = Set(writes.uses(in: 0).filter(\.isWrite).map(\.name))
        #expect(written == ["items", "a", "list", "x", "y", "count", "z"], "\(written)")
        #expect(writes.uses(in: 0).first { $0.name == "local" }?.isDeclaration == true)
    }
}
