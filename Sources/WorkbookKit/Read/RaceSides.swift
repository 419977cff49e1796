import Foundation

/// The accesses of one race report, each placed in one file (the learner's): the frames of that
/// file on its stack, innermost first. What `check` names in one sentence and `explain` draws.
///
/// Symbolizing sometimes loses a frame's line (TSan prints the file without `:line`); the same
/// function's line elsewhere in the report stands in for it.
struct RaceSides: Sendable {
    /// One access of the race.
    struct Side: Sendable {
        var isWrite: Bool
        /// `true` for the access TSan remembered from before ("Previous write …").
        var isPrevious: Bool
        /// "T5", "main thread", …
        var thread: String
        /// This access's frames in the file, innermost first (a line is `nil` where none was found).
        var frames: [TSanReport.Frame]
        /// Where the access was made when none of its frames is in the file: the innermost frame
        /// that names a file (the tests, the test support).
        var elsewhere: TSanReport.Frame?
        /// When no frame kept its line (TSan's Swift access races often do not): the function of the
        /// file the innermost frame names, and the line that declares it.
        var function: (name: String, line: Int)?

        /// The innermost line of the file on this access's stack.
        var line: Int? { frames.lazy.compactMap(\.line).first }
    }

    var sides: [Side]

    /// The sides of `report`, placed in the file whose path ends with `suffix` (see ``sourceFile(_:isIn:)``);
    /// `source`, the file's text, finds the function of a frame that kept no line.
    init(_ report: TSanReport, in suffix: String, source: String? = nil) {
        let known = report.allFrames.filter { $0.isIn(suffix) && $0.line != nil }
        sides = report.accesses.map { access in
            let frames = access.frames.filter { $0.isIn(suffix) }.map { frame in
                var frame = frame
                if frame.line == nil { frame.line = known.first { $0.symbol == frame.symbol }?.line }
                return frame
            }
            var side = Side(isWrite: access.isWrite, isPrevious: access.isPrevious, thread: access.thread, frames: frames,
                            elsewhere: frames.isEmpty ? access.frames.first { $0.file != nil } : nil)
            if side.line == nil, let symbol = frames.first?.symbol, let source {
                side.function = Self.function(named: symbol, in: source)
            }
            return side
        }
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

    /// The lines of the file the accesses were made at, writes first: where the variable they are
    /// about is best named.
    var accessLines: [Int] { sides.filter(\.isWrite).compactMap(\.line) + sides.filter { !$0.isWrite }.compactMap(\.line) }

    /// The sides in the order TSan saw them: the remembered access first.
    var inOrder: [Side] { sides.filter(\.isPrevious) + sides.filter { !$0.isPrevious } }
}
