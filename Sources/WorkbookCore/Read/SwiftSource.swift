import Foundation

/// A Swift file read for its shape, not parsed: comments and string literals blanked out, braces
/// paired, and each brace told apart — a function's body, a computed property, an accessor, a
/// closure, a type, or control flow. Enough to find the closure a TSan frame names and the accesses
/// in it (``RaceSides``), and the body a queue was made in (``PatternCheck``).
///
/// Offsets are UTF-8 byte offsets, as TSan's columns are (1-based there).
package struct SwiftSource: Sendable {
    /// The file's bytes with every comment and string literal replaced by spaces (line breaks kept):
    /// only code is left, at the same offsets.
    let code: [UInt8]
    /// Where each line starts: line 1 at `lineStarts[0]`.
    let lineStarts: [Int]
    /// Every pair of braces, in the order their `{` appear.
    let scopes: [Scope]

    /// One pair of braces.
    struct Scope: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            /// `func name`, `init`, `deinit`, `subscript`: the name.
            case function(String)
            /// `var name: T {`: a computed property, its body the getter unless it holds accessors.
            case property(String)
            /// `get`, `set`, `willSet`, `didSet`.
            case accessor(String)
            case closure
            /// `class`, `struct`, `enum`, `extension`, `protocol`, `actor`: the type's name.
            case type(String)
            /// `if`, `else`, `guard … else`, `for`, `while`, `repeat`, `switch`, `do`, `catch`, `defer`.
            case control
        }

        var kind: Kind
        /// The offsets of its `{` and of its `}` (the file's end when it is never closed).
        var open: Int
        var close: Int
        /// The innermost scope around it.
        var parent: Int?

        var isAccessor: Bool {
            if case .accessor = kind { return true }
            return false
        }

        /// Whether its body is code Swift names a frame after: a function, a property's getter, an
        /// accessor or a closure (not a type, not an `if`).
        var isCode: Bool {
            switch kind {
            case .function, .property, .accessor, .closure: true
            case .type, .control: false
            }
        }
    }

    init(_ text: String) {
        let bytes = Array(text.utf8)
        code = Self.masked(bytes)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
        scopes = Self.scopes(in: code)
    }

    /// `text`'s code as its fingerprint reads it: comments left out and spacing made irrelevant —
    /// no space at all but one between two words — so that two files that differ only there read the same.
    package static func codeWithoutComments(_ text: String) -> String {
        let bytes = masked(Array(text.utf8), strings: false)
        var out: [UInt8] = []
        var pendingSpace = false
        for byte in bytes {
            if isSpace(byte) { pendingSpace = true; continue }
            if pendingSpace, let last = out.last, isIdentifier(last), isIdentifier(byte) { out.append(UInt8(ascii: " ")) }
            pendingSpace = false
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Places

    /// The 1-based line of `offset`.
    func line(of offset: Int) -> Int {
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }

    /// The 1-based column of `offset` on its line.
    func column(of offset: Int) -> Int { offset - lineStarts[line(of: offset) - 1] + 1 }

    /// The offset of a 1-based line and column, when the file has it.
    func offset(line: Int, column: Int) -> Int? {
        guard line >= 1, line <= lineStarts.count, column >= 1 else { return nil }
        let offset = lineStarts[line - 1] + column - 1
        let end = line < lineStarts.count ? lineStarts[line] : code.count
        return offset < end ? offset : nil
    }

    /// The scope whose `{` is at `offset`.
    func scope(openingAt offset: Int) -> Int? { scopes.firstIndex { $0.open == offset } }

    /// The innermost code scope (``Scope/isCode``) around `offset`.
    func codeScope(around offset: Int) -> Int? {
        var found: Int?
        for (index, scope) in scopes.enumerated() where scope.isCode && scope.open < offset && offset < scope.close {
            found = index
        }
        return found
    }

    /// The nearest code scope that holds `index` (passing over `if`s and the like): whose code it is.
    func owner(of index: Int) -> Int? {
        var parent = scopes[index].parent
        while let current = parent, !scopes[current].isCode { parent = scopes[current].parent }
        return parent
    }

    /// Whether `offset` is code of `index` itself: inside its braces, not inside a function, closure
    /// or type nested in it.
    func isOwnCode(_ offset: Int, of index: Int) -> Bool {
        let scope = scopes[index]
        guard scope.open < offset, offset < scope.close else { return false }
        return !scopes.indices.contains { nested in
            nested != index && scopes[nested].kind != .control
                && scopes[nested].open > scope.open && scopes[nested].close < scope.close
                && scopes[nested].open <= offset && offset <= scopes[nested].close
        }
    }

    // MARK: Names and accesses

    /// One use of a name in the code.
    struct Use: Sendable, Equatable {
        var name: String
        var offset: Int
        /// Whether this use writes it: assigned (`=`, `+=`, …, through `[…]` or `.member` too),
        /// changed by a mutating call (`.append(`, …), or passed `&inout`.
        var isWrite: Bool
        /// Whether this use declares it (`let name`, `var name`).
        var isDeclaration: Bool
    }

    /// Calls that change the value they are made on.
    static let mutatingMethods: Set<String> = [
        "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "removeValue", "updateValue",
        "toggle", "formUnion", "formIntersection", "subtract", "sort", "reverse", "shuffle", "popLast", "merge", "reserveCapacity",
    ]

    /// Every name used in `index`'s own code (see ``isOwnCode(_:of:)``), in order. A member after a
    /// dot is not a use of its own, except after `self.`.
    func uses(in index: Int) -> [Use] {
        let scope = scopes[index]
        var uses: [Use] = []
        var offset = scope.open + 1
        while offset < scope.close {
            guard Self.startsIdentifier(code[offset]), offset == 0 || !Self.isIdentifier(code[offset - 1]) else {
                offset += 1
                continue
            }
            var end = offset
            while end < code.count, Self.isIdentifier(code[end]) { end += 1 }
            let name = String(decoding: code[offset..<end], as: UTF8.self)
            defer { offset = end }
            guard isOwnCode(offset, of: index), !Self.keywords.contains(name) else { continue }
            let before = previousNonSpace(before: offset)
            if let before, code[before] == UInt8(ascii: ".") {
                // A member: a use only as `self.name`.
                guard let dot = previousNonSpace(before: before), word(endingAt: dot) == "self" else { continue }
            }
            let declared = previousWord(before: offset).map { ["let", "var"].contains($0) } ?? false
            let inout_ = before.map { code[$0] == UInt8(ascii: "&") } ?? false
            uses.append(Use(name: name, offset: offset, isWrite: !declared && (inout_ || isWritten(after: end)),
                            isDeclaration: declared))
        }
        return uses
    }

    /// Whether the name ending at `end` is written: followed, past any `[…]`, `!`, `?` and `.member`
    /// chain, by an assignment operator or a mutating call.
    private func isWritten(after end: Int) -> Bool {
        var at = end
        while true {
            guard let next = nextNonSpace(from: at, sameLine: true) else { return false }
            switch code[next] {
            case UInt8(ascii: "["):
                guard let close = matching(from: next) else { return false }
                at = close + 1
            case UInt8(ascii: "!"), UInt8(ascii: "?"):
                if next + 1 < code.count, code[next + 1] == UInt8(ascii: "=") { return false }
                at = next + 1
            case UInt8(ascii: "."):
                var wordEnd = next + 1
                while wordEnd < code.count, Self.isIdentifier(code[wordEnd]) { wordEnd += 1 }
                let member = String(decoding: code[(next + 1)..<wordEnd], as: UTF8.self)
                if Self.mutatingMethods.contains(member),
                   let call = nextNonSpace(from: wordEnd, sameLine: true), code[call] == UInt8(ascii: "(") {
                    return true
                }
                guard !member.isEmpty else { return false }
                at = wordEnd
            default:
                return isAssignment(at: next)
            }
        }
    }

    /// Whether an assignment operator starts at `offset`: `=` (not `==`), or `+=`, `-=`, `&+=`, `<<=`, ….
    private func isAssignment(at offset: Int) -> Bool {
        var at = offset
        let operators = Set("+-*/%&|^<>~".utf8)
        while at < code.count, operators.contains(code[at]) { at += 1 }
        guard at < code.count, code[at] == UInt8(ascii: "=") else { return false }
        let prefix = String(decoding: code[offset..<at], as: UTF8.self)
        guard !["<", ">", "!"].contains(prefix) else { return false }
        return at + 1 >= code.count || code[at + 1] != UInt8(ascii: "=")
    }

    /// The variable used at `offset` — the name there, when it is one the code reads or writes: not
    /// a keyword, not a member (but `self.name`), not a call (`name(`, `name {`).
    func variable(at offset: Int) -> String? {
        guard let name = identifier(at: offset), !Self.keywords.contains(name) else { return nil }
        var start = offset, end = offset
        while start > 0, Self.isIdentifier(code[start - 1]) { start -= 1 }
        while end < code.count, Self.isIdentifier(code[end]) { end += 1 }
        if let before = previousNonSpace(before: start), code[before] == UInt8(ascii: ".") {
            guard let dot = previousNonSpace(before: before), word(endingAt: dot) == "self" else { return nil }
        }
        if let after = nextNonSpace(from: end, sameLine: true), [UInt8(ascii: "("), UInt8(ascii: "{")].contains(code[after]) {
            return nil
        }
        return name
    }

    /// The declaration whose code `index` is, as a drawing names it: `name(…)` for a function
    /// (`init(…)`, `deinit`), the property's name for a getter or an accessor; closures are passed
    /// over to the declaration they are written in.
    func declarationName(of index: Int) -> String? {
        var current: Int? = index
        while let scope = current.map({ scopes[$0] }) {
            switch scope.kind {
            case let .function(name): return name == "deinit" ? name : name + "(…)"
            case let .property(name): return name
            case .accessor: current = scope.parent
            case .closure, .control: current = scope.parent
            case .type: return nil
            }
        }
        return nil
    }

    /// The identifier at `offset`, or that starts at it or around it.
    func identifier(at offset: Int) -> String? {
        guard offset < code.count, Self.isIdentifier(code[offset]) else { return nil }
        var start = offset, end = offset
        while start > 0, Self.isIdentifier(code[start - 1]) { start -= 1 }
        while end < code.count, Self.isIdentifier(code[end]) { end += 1 }
        guard Self.startsIdentifier(code[start]) else { return nil }
        return String(decoding: code[start..<end], as: UTF8.self)
    }

    // MARK: Frames

    /// The code scope a symbol names — `closure #1 () -> () in closure #2 () -> () in
    /// Module.Type.name(…)` demangled, or `closure #1 in name(_:)` as `atos` prints it — when the file
    /// has it: the function, property or accessor by name, then each closure by its number among
    /// the closures written directly in the one around it.
    func scope(named symbol: String) -> Int? {
        var rest = Substring(symbol)
        var steps: [(name: String?, number: Int)] = []
        while true {
            if rest.hasPrefix("closure #") {
                rest = rest.dropFirst("closure #".count)
            } else if let match = rest.prefixMatch(of: #/([A-Za-z_][A-Za-z0-9_]*) #(\d+) /#) {
                // A local function: `name #1 () -> () in …`.
                steps.append((String(match.1), Int(match.2) ?? 1))
                guard let inWord = rest.range(of: " in ") else { return nil }
                rest = rest[inWord.upperBound...]
                continue
            } else {
                break
            }
            let digits = rest.prefix { $0.isNumber }
            guard let number = Int(digits), let inWord = rest.range(of: " in ") else { return nil }
            steps.append((nil, number))
            rest = rest[inWord.upperBound...]
        }
        guard var current = declaration(named: String(rest)) else { return nil }
        for step in steps.reversed() {
            let children = scopes.indices.filter { owner(of: $0) == current }.filter { index in
                switch scopes[index].kind {
                case .closure: step.name == nil
                case let .function(name): step.name == name
                default: false
                }
            }
            guard step.number >= 1, step.number <= children.count else { return nil }
            current = children[step.number - 1]
        }
        return current
    }

    /// The function, property or accessor a declaration's name names: `Module.Type.name(…) -> …`,
    /// `Module.Type.(name in _1A2B…)() -> ()`, `Module.Type.value.getter : Int`, `name(_:)`.
    private func declaration(named text: String) -> Int? {
        var text = text.replacing(/\(([A-Za-z_][A-Za-z0-9_]*) in _[0-9A-F]+\)/) { String($0.1) }
        if let colon = text.firstRange(of: "):") { text = String(text[colon.upperBound...]) }  // "(extension in M):"
        if text.hasPrefix("static ") { text = String(text.dropFirst("static ".count)) }
        let path = text.prefix { $0 != "(" && $0 != " " && $0 != "<" }.split(separator: ".").map(String.init)
        guard let last = path.last else { return nil }
        let accessors = ["getter": "get", "setter": "set", "modify": "set", "willset": "willSet", "didset": "didSet"]
        if let accessor = accessors[last], path.count >= 2 {
            let type = path.count >= 3 ? path[path.count - 3] : nil
            guard let property = declared(.property(path[path.count - 2]), inType: type) else { return nil }
            let accessors = scopes.indices.filter { scopes[$0].parent == property && scopes[$0].isAccessor }
            let own = accessors.first { scopes[$0].kind == .accessor(accessor) }
            // A property without accessors is its getter.
            return own ?? (accessor == "get" && accessors.isEmpty ? property : nil)
        }
        let name = last.hasSuffix("deinit") ? "deinit" : last.hasSuffix("init") ? "init" : last
        return declared(.function(name), inType: path.count >= 2 ? path[path.count - 2] : nil)
    }

    /// The first scope of `kind`, the one inside type `type` when there are several.
    private func declared(_ kind: Scope.Kind, inType type: String?) -> Int? {
        let all = scopes.indices.filter { scopes[$0].kind == kind }
        guard all.count > 1, let type else { return all.first }
        return all.first { index in
            var parent = scopes[index].parent
            while let current = parent {
                if scopes[current].kind == .type(type) { return true }
                parent = scopes[current].parent
            }
            return false
        } ?? all.first
    }

    // MARK: Reading the masked code

    private static let keywords: Set<String> = [
        "let", "var", "if", "else", "guard", "return", "func", "for", "in", "while", "repeat", "switch", "case",
        "default", "do", "catch", "try", "throw", "defer", "break", "continue", "true", "false", "nil", "self",
        "Self", "init", "deinit", "where", "is", "as", "await", "some", "any", "inout", "static", "class", "struct",
        "enum", "public", "private", "internal", "fileprivate", "final", "weak", "unowned", "import",
    ]

    static func isIdentifier(_ byte: UInt8) -> Bool {
        startsIdentifier(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    static func startsIdentifier(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    private func previousNonSpace(before offset: Int) -> Int? {
        var at = offset - 1
        while at >= 0, Self.isSpace(code[at]) { at -= 1 }
        return at >= 0 ? at : nil
    }

    private func nextNonSpace(from offset: Int, sameLine: Bool) -> Int? {
        var at = offset
        while at < code.count, Self.isSpace(code[at]) {
            if sameLine, code[at] == UInt8(ascii: "\n") { return nil }
            at += 1
        }
        return at < code.count ? at : nil
    }

    /// The word that ends at `offset` (inclusive).
    private func word(endingAt offset: Int) -> String? {
        guard Self.isIdentifier(code[offset]) else { return nil }
        var start = offset
        while start > 0, Self.isIdentifier(code[start - 1]) { start -= 1 }
        return String(decoding: code[start...offset], as: UTF8.self)
    }

    /// The word just before `offset`, past spaces.
    private func previousWord(before offset: Int) -> String? {
        previousNonSpace(before: offset).flatMap(word(endingAt:))
    }

    /// The `]` or `)` that closes the bracket at `offset`.
    private func matching(from offset: Int) -> Int? {
        let open = code[offset], close: UInt8 = open == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: ")")
        var depth = 0
        for at in offset..<code.count {
            if code[at] == open { depth += 1 }
            if code[at] == close { depth -= 1; if depth == 0 { return at } }
        }
        return nil
    }

    // MARK: Masking

    /// `bytes` with comments and (unless `strings` is false) string literals — raw, multi-line —
    /// blanked; the code inside a string's interpolation `\(…)` is kept.
    static func masked(_ bytes: [UInt8], strings: Bool = true) -> [UInt8] {
        enum Mode { case code(parens: Int), string(hashes: Int, multiline: Bool) }
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        let newline = UInt8(ascii: "\n"), backslash = UInt8(ascii: "\\")
        var out = bytes
        var modes: [Mode] = [.code(parens: 0)]
        var at = 0
        func blank(_ range: Range<Int>) {
            for index in range where index < out.count && out[index] != newline { out[index] = UInt8(ascii: " ") }
        }
        // A string literal's bytes, blanked only when strings are.
        func blankString(_ range: Range<Int>) { if strings { blank(range) } }
        func byte(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        while at < bytes.count {
            switch modes[modes.count - 1] {
            case let .code(parens):
                let current = bytes[at]
                if current == slash, byte(at + 1) == slash {
                    var end = at
                    while end < bytes.count, bytes[end] != newline { end += 1 }
                    blank(at..<end)
                    at = end
                } else if current == slash, byte(at + 1) == star {
                    var depth = 0, end = at
                    repeat {
                        if byte(end) == slash, byte(end + 1) == star { depth += 1; end += 2 }
                        else if byte(end) == star, byte(end + 1) == slash { depth -= 1; end += 2 }
                        else { end += 1 }
                    } while depth > 0 && end < bytes.count
                    blank(at..<end)
                    at = end
                } else if current == quote || current == hash {
                    var hashes = 0
                    while byte(at + hashes) == hash { hashes += 1 }
                    guard byte(at + hashes) == quote else { at += max(hashes, 1); continue }
                    let multiline = byte(at + hashes + 1) == quote && byte(at + hashes + 2) == quote
                    let opening = hashes + (multiline ? 3 : 1)
                    blankString(at..<(at + opening))
                    modes.append(.string(hashes: hashes, multiline: multiline))
                    at += opening
                } else if current == UInt8(ascii: "(") {
                    modes[modes.count - 1] = .code(parens: parens + 1)
                    at += 1
                } else if current == UInt8(ascii: ")") {
                    if parens == 0 && modes.count > 1 {
                        blankString(at..<(at + 1))
                        modes.removeLast()
                    } else {
                        modes[modes.count - 1] = .code(parens: max(parens - 1, 0))
                    }
                    at += 1
                } else {
                    at += 1
                }
            case let .string(hashes, multiline):
                let current = bytes[at]
                let closing = multiline ? 3 : 1
                if current == backslash, (1...max(hashes, 1)).allSatisfy({ hashes == 0 ? true : byte(at + $0) == hash }) {
                    let after = at + 1 + hashes
                    if byte(after) == UInt8(ascii: "(") {
                        blankString(at..<(after + 1))
                        modes.append(.code(parens: 0))
                        at = after + 1
                    } else {
                        blankString(at..<(after + 1))
                        at = after + 1
                    }
                } else if current == quote, (0..<closing).allSatisfy({ byte(at + $0) == quote }),
                          (0..<hashes).allSatisfy({ byte(at + closing + $0) == hash }) {
                    blankString(at..<(at + closing + hashes))
                    modes.removeLast()
                    at += closing + hashes
                } else if current == newline && !multiline {
                    modes.removeLast()  // an unterminated literal ends with its line
                    at += 1
                } else {
                    blankString(at..<(at + 1))
                    at += 1
                }
            }
        }
        return out
    }

    // MARK: Braces

    /// Every brace pair of masked `code`, each told apart by the words before its `{`.
    static func scopes(in code: [UInt8]) -> [Scope] {
        var scopes: [Scope] = []
        var open: [Int] = []
        for (offset, byte) in code.enumerated() {
            if byte == UInt8(ascii: "{") {
                scopes.append(Scope(kind: kind(ofBraceAt: offset, in: code), open: offset, close: code.count, parent: open.last))
                open.append(scopes.count - 1)
            } else if byte == UInt8(ascii: "}"), let index = open.popLast() {
                scopes[index].close = offset
            }
        }
        return scopes
    }

    /// What the `{` at `offset` opens, from the statement before it: its first word (past modifiers
    /// and attributes) — `func`, `if`, `var`, `class`, … — or a closure for anything else (a call's
    /// trailing closure, an argument, a value).
    static func kind(ofBraceAt offset: Int, in code: [UInt8]) -> Scope.Kind {
        // Walk back over the statement: past balanced (…) and […], to a `{`, `}` or `;`, or a line
        // break that ends a statement. An unbalanced `(` or `[` means the brace is an argument.
        var depth = 0
        var at = offset - 1
        var start = 0
        while at >= 0 {
            let byte = code[at]
            if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") {
                depth += 1
            } else if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") {
                if depth == 0 { return .closure }
                depth -= 1
            } else if depth == 0, byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ";") {
                start = at + 1
                break
            } else if depth == 0, byte == UInt8(ascii: "\n"), endsStatement(lineBreakAt: at, braceAt: offset, in: code) {
                start = at + 1
                break
            }
            at -= 1
        }
        // The words at depth 0, in order.
        var words: [String] = []
        var hasAssignment = false
        depth = 0
        var index = start
        while index < offset {
            let byte = code[index]
            if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") { depth -= 1 }
            if depth == 0, byte == UInt8(ascii: "="),
               index + 1 < offset ? code[index + 1] != UInt8(ascii: "=") : true,
               index > start ? !"=!<>".utf8.contains(code[index - 1]) : true {
                hasAssignment = true
            }
            if depth == 0, startsIdentifier(byte) || byte == UInt8(ascii: "@"), index == start || !isIdentifier(code[index - 1]) {
                var end = index + 1
                while end < offset, isIdentifier(code[end]) { end += 1 }
                words.append(String(decoding: code[index..<end], as: UTF8.self))
                index = end
                continue
            }
            index += 1
        }
        let modifiers: Set<String> = ["public", "private", "internal", "fileprivate", "open", "final", "static", "override",
                                      "mutating", "nonmutating", "lazy", "weak", "unowned", "convenience", "required",
                                      "nonisolated", "dynamic", "optional", "indirect", "package"]
        var meaningful = words.drop { modifiers.contains($0) || $0.hasPrefix("@") }
        if meaningful.first == "class", let next = meaningful.dropFirst().first,
           ["func", "var", "let", "subscript", "init"].contains(next) || modifiers.contains(next) {
            meaningful = meaningful.dropFirst().drop { modifiers.contains($0) }
        }
        let name = meaningful.dropFirst().first ?? ""
        switch meaningful.first ?? "" {
        case "if", "guard", "while", "for", "switch", "do", "catch", "repeat", "defer", "else":
            return .control
        case "func":
            return .function(name)
        case "init", "deinit", "subscript":
            return .function(meaningful.first ?? "")
        case "get", "set", "willSet", "didSet", "_modify", "_read":
            return .accessor(meaningful.first ?? "")
        case "var", "let":
            return hasAssignment ? .closure : .property(name)
        case "class", "struct", "enum", "extension", "protocol", "actor":
            return .type(name)
        default:
            return .closure
        }
    }

    /// Whether the line break at `offset` ends a statement: the line before does not end in an
    /// operator, a comma or an opening bracket, and the code from the next line on (up to the brace)
    /// does not start with a dot, an operator, a closing bracket, `else`, `where`, or the brace itself.
    private static func endsStatement(lineBreakAt offset: Int, braceAt brace: Int, in code: [UInt8]) -> Bool {
        var before = offset - 1
        while before >= 0, code[before] == UInt8(ascii: " ") || code[before] == UInt8(ascii: "\t") || code[before] == UInt8(ascii: "\r") {
            before -= 1
        }
        if before >= 0, "=,([:&|+-*/%.".utf8.contains(code[before]) { return false }
        var after = offset + 1
        while after < brace, isSpace(code[after]) { after += 1 }
        guard after < brace else { return false }
        if ".=&|+-*/%<>?:)],{".utf8.contains(code[after]) { return false }
        var end = after
        while end < brace, isIdentifier(code[end]) { end += 1 }
        let word = String(decoding: code[after..<end], as: UTF8.self)
        return !["else", "where", "throws", "rethrows", "async"].contains(word)
    }
}
