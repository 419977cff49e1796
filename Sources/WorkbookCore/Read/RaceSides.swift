import Foundation

/// The accesses of one race report, each placed in one file (the learner's): the frames of that
/// file on its stack, innermost first. What `check` names in one sentence and `explain` draws.
///
/// The innermost frame is where the access was made. When TSan kept no line for it — it prints the
/// file without `:line`, or the line of the closure's opening `{` — the access is looked for in
/// the code that frame names (the function, or the closure by its number: ``SwiftSource``): the one
/// line there that writes the race's variable (for a write) or uses it (for a read). When no single
/// line does, the line stays unknown — never another access's line, which may read where this one
/// wrote.
struct RaceSides: Sendable {
    /// One access of the race.
    struct Side: Sendable {
        var isWrite: Bool
        /// `true` for the access TSan remembered from before ("Previous write …").
        var isPrevious: Bool
        /// "T5", "main thread", …
        var thread: String
        /// This access's frames in the file, innermost first. The innermost one's line is the
        /// access's own (`nil` when unknown); the others' are the calls that led there, as TSan gave them.
        var frames: [TSanReport.Frame]
        /// Where the access was made when none of its frames is in the file: the innermost frame
        /// that names a file (the tests, the test support).
        var elsewhere: TSanReport.Frame?
        /// When the access's line is unknown: the function of the file the innermost frame names,
        /// and the line that declares it.
        var function: (name: String, line: Int)?
        /// The declaration the access was made in (`makeLatch(…)`, `value`), when the file tells.
        var declaration: String?
        /// Whether the file's own code made the access (its innermost frame comes before any other
        /// Swift file's), rather than code it called (a test's completion).
        var madeInFile: Bool

        /// The line the access was made at, when known.
        var line: Int? { frames.first?.line }
        /// Its column, when known.
        var column: Int? { frames.first?.line == nil ? nil : frames.first?.column }
        /// The lines of the calls that led to the access, outermost first, each once.
        var callLines: [Int] {
            var seen: [Int] = []
            for line in frames.dropFirst().reversed().compactMap(\.line) where !seen.contains(line) && line != self.line {
                seen.append(line)
            }
            return seen
        }
    }

    var sides: [Side]
    /// The variable the race is about, as the lines of its accesses name it (writes first).
    var variable: String?

    /// The sides of `report`, placed in the file whose path ends with `suffix` (see ``sourceFile(_:isIn:)``);
    /// `source`, the file's text, places a frame that kept no line and names the variable.
    init(_ report: TSanReport, in suffix: String, source: String? = nil) {
        let file = source.map(SwiftSource.init)
        sides = report.accesses.map { access in
            let frames = access.frames.filter { $0.isIn(suffix) }
            let before = access.frames.prefix { !$0.isIn(suffix) }
            return Side(isWrite: access.isWrite, isPrevious: access.isPrevious, thread: access.thread, frames: frames,
                        elsewhere: frames.isEmpty ? access.frames.first { $0.file != nil } : nil,
                        madeInFile: !frames.isEmpty && !before.contains { $0.file?.hasSuffix(".swift") ?? false })
        }
        guard let file, let source else { return }
        // A frame at a place outside the code its symbol names (the closure's `{`, the call that
        // passes it) is the closure's prologue, not one of its lines.
        for index in sides.indices {
            guard let frame = sides[index].frames.first, let line = frame.line,
                  let offset = file.offset(line: line, column: frame.column ?? 1) else { continue }
            let named = file.scope(named: Demangler.demangle(symbol: frame.symbol) ?? frame.symbol)
            if let named, frame.column != nil, !(file.scopes[named].open < offset && offset < file.scopes[named].close) {
                sides[index].frames[0].line = nil
                sides[index].frames[0].column = nil
            }
        }
        variable = Self.variable(of: sides, in: file, source: source)
        // Writes first: a write found names the variable for a read.
        for index in sides.indices.sorted(by: { sides[$0].isWrite && !sides[$1].isWrite }) {
            guard let frame = sides[index].frames.first, frame.line == nil else { continue }
            if let place = Self.access(of: frame, isWrite: sides[index].isWrite, variable: variable, in: report, file: file, suffix: suffix) {
                sides[index].frames[0].line = file.line(of: place)
                sides[index].frames[0].column = file.column(of: place)
                variable = variable ?? file.variable(at: place)
            } else {
                // The function it was made in: by name in the source, else the declaration the
                // code its symbol names belongs to (a one-line getter, a closure in it).
                let named = file.scope(named: Demangler.demangle(symbol: frame.symbol) ?? frame.symbol)
                sides[index].function = Self.function(named: frame.symbol, in: source)
                    ?? named.flatMap { scope in
                        file.declarationName(of: scope).map { ($0, file.line(of: file.scopes[scope].open)) }
                    }
            }
        }
        for index in sides.indices {
            guard let frame = sides[index].frames.first else { continue }
            let scope = file.scope(named: Demangler.demangle(symbol: frame.symbol) ?? frame.symbol)
                ?? frame.line.flatMap { file.offset(line: $0, column: frame.column ?? 1) }.flatMap(file.codeScope(around:))
            sides[index].declaration = scope.flatMap(file.declarationName(of:))
        }
    }

    /// The variable the known lines name: the name at a read's or write's column, or the name a
    /// line assigns; writes first.
    private static func variable(of sides: [Side], in file: SwiftSource, source: String) -> String? {
        let known = sides.filter(\.isWrite) + sides.filter { !$0.isWrite }
        return known.lazy.compactMap { side -> String? in
            guard let line = side.line else { return nil }
            if let column = side.column, let offset = file.offset(line: line, column: column), let name = file.variable(at: offset) {
                return name
            }
            return Grader.variableName(inLine: line, of: source)
        }.first
    }

    /// Where the access `frame` made is, in the code its symbol names (or, failing that, the code
    /// around another frame of the report with the same symbol and a line): the one place there that
    /// writes `variable` (any variable not declared there, when unknown) for a write, or uses it for
    /// a read. `nil` when there is not exactly one such line.
    private static func access(of frame: TSanReport.Frame, isWrite: Bool, variable: String?, in report: TSanReport,
                               file: SwiftSource, suffix: String) -> Int?
    {
        let symbol = Demangler.demangle(symbol: frame.symbol) ?? frame.symbol
        let scope = file.scope(named: symbol) ?? report.allFrames.lazy.compactMap { other -> Int? in
            guard other.symbol == frame.symbol, other.isIn(suffix), let line = other.line,
                  let offset = file.offset(line: line, column: other.column ?? 1) else { return nil }
            return file.scope(openingAt: offset) ?? file.codeScope(around: offset)
        }.first
        guard let scope else { return nil }
        let uses = file.uses(in: scope)
        let local = Set(uses.filter(\.isDeclaration).map(\.name))
        let candidates: [SwiftSource.Use] = if let variable {
            uses.filter { $0.name == variable && !$0.isDeclaration && (!isWrite || $0.isWrite) }
        } else if isWrite {
            uses.filter { $0.isWrite && !local.contains($0.name) }
        } else {
            []
        }
        let lines = Set(candidates.map { file.line(of: $0.offset) })
        guard lines.count == 1 else { return nil }
        return candidates.first?.offset
    }

    /// The function of `source` a frame's `symbol` names — mangled (`$s…8EventLogC6recordyySSF`, read
    /// through ``Demangler/demangle(symbol:)``) or demangled by the symbolizer (`closure #1 in
    /// EventLog.record(_:)`) — and the line that declares it; the innermost one when it names several.
    static func function(named symbol: String, in source: String) -> (name: String, line: Int)? {
        let symbol = Demangler.demangle(symbol: symbol) ?? symbol
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        var best: (name: String, line: Int, at: String.Index)?
        for (index, text) in lines.enumerated() {
            guard let declared = declaration(in: text), declared.name != "init", declared.name != "deinit" else { continue }
            let name = declared.name
            // `Type.name(…)`, `in name(…)`, `Type.name.getter`.
            let found = [".\(name)(", " \(name)(", ".\(name)."].compactMap { symbol.range(of: $0, options: .backwards) }
                .max { $0.lowerBound < $1.lowerBound }
            if let found, best.map({ found.lowerBound > $0.at }) ?? true {
                best = (declared.shown, index + 1, found.lowerBound)
            }
        }
        return best.map { ($0.name, $0.line) }
    }

    /// The declaration a line of source opens, if any — `func name(`, `init(`, `deinit`, or a computed
    /// property `var name: T {` — with its name as a drawing shows it (`name(…)` for a function).
    static func declaration(in text: Substring) -> (name: String, shown: String)? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        func identifier(after index: Int) -> String? {
            guard index + 1 < words.count else { return nil }
            let name = String(words[index + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            return name.isEmpty ? nil : name
        }
        if let at = words.firstIndex(of: "func") {
            return identifier(after: at).map { ($0, $0 + "(…)") }
        }
        if let word = words.first(where: { $0.hasPrefix("init(") || $0.hasPrefix("init?(") || $0 == "deinit" }) {
            return word == "deinit" ? ("deinit", "deinit") : ("init", "init(…)")
        }
        if let at = words.firstIndex(of: "var"), words.last == "{" {
            return identifier(after: at).map { ($0, $0) }
        }
        return nil
    }

    /// The lines of the file the accesses were made at, writes first.
    var accessLines: [Int] { sides.filter(\.isWrite).compactMap(\.line) + sides.filter { !$0.isWrite }.compactMap(\.line) }

    /// The sides in the order TSan saw them: the remembered access first.
    var inOrder: [Side] { sides.filter(\.isPrevious) + sides.filter { !$0.isPrevious } }
}
