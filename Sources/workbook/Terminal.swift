import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import WorkbookClassroom
import WorkbookCore
import WorkbookEngine

/// What the tool knows about the terminal it talks to.
enum Terminal {
    /// The environment the tool read when it started (see ``WorkbookEnvironment``).
    static let environment = WorkbookEnvironment.process
    /// The platform that environment names (this machine's, unless `WORKBOOK_PLATFORM` says
    /// otherwise), with the PATH its tools are found on: what every command builds, runs and probes with.
    static let platform = Platform(environment)

    /// Colours for standard output: on a terminal, unless `NO_COLOR` is set.
    static var style: Style { Style.automatic(for: STDOUT_FILENO, in: environment) }
    /// Colours for standard error: on a terminal, unless `NO_COLOR` is set.
    static var errorStyle: Style { Style.automatic(for: STDERR_FILENO, in: environment) }

    /// The widest a paragraph is wrapped, even on a wide terminal: longer lines are hard to read.
    static let readableWidth = 100

    /// Columns to wrap text at: the terminal's width when standard output is one (up to
    /// ``readableWidth``), else `COLUMNS`, else ``readableWidth``.
    static var width: Int {
        if let columns = windowColumns(STDOUT_FILENO), columns >= 40 { return min(columns, readableWidth) }
        if let columns = environment.columns, columns >= 40 {
            return min(columns, readableWidth)
        }
        return readableWidth
    }

    private static func windowColumns(_ descriptor: Int32) -> Int? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        #if canImport(Darwin)
        let request = TIOCGWINSZ
        #else
        let request = UInt(TIOCGWINSZ)
        #endif
        guard ioctl(descriptor, request, &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Asks a yes/no question on a terminal; `false` when not on one.
    static func confirm(_ question: String) -> Bool {
        guard isatty(STDIN_FILENO) == 1 else { return false }
        print(question + " [y/N] ", terminator: "")
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.lowercased())
    }

    /// Shows a file through a pager on a terminal, or prints it.
    static func page(_ file: URL) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        guard isatty(STDOUT_FILENO) == 1 else { print(text); return }
        let pager = environment.pager ?? "less"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = pager == "less" ? ["less", "-R", "-F", "-X", file.path] : [pager, file.path]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            print(text)
        }
    }

    /// Every write goes through here, so that the interrupt's message never lands inside another one
    /// and a progress line is cleared before anything else is written.
    private static let output = Output()

    /// Prints `text` and a newline to standard output.
    static func say(_ text: String) {
        output.write(text + "\n", to: .standardOutput)
    }

    /// Shows a line of progress on standard error, so standard output stays clean for --json: on a
    /// terminal one dimmed line that each new one replaces, elsewhere plain lines.
    static let progress: @Sendable (String) -> Void = { line in
        guard isatty(STDERR_FILENO) == 1 else {
            output.write(line + "\n", to: .standardError)
            return
        }
        let width = windowColumns(STDERR_FILENO) ?? readableWidth
        let shown = line.count < width ? line : String(line.prefix(width - 2)) + "…"
        output.showProgress(Terminal.errorStyle.dim(shown))
    }

    /// How a report writes the places of failures here: from the package root when that is the
    /// current directory, else in full, so that a terminal or an editor can open them.
    static func paths(for workbook: Workbook) -> PathStyle {
        PathStyle(root: workbook.root, currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    }

    /// A checker that reports its progress here, with the build's every step on a terminal.
    static func checker(for workbook: Workbook) -> Checker {
        var checker = Checker(workbook: workbook, platform: platform, scratchPath: environment.checkScratch, progress: progress)
        checker.showsBuildSteps = isatty(STDERR_FILENO) == 1
        checker.artifactsKeptIn = environment.keepArtifacts
        return checker
    }

    /// Writes a message to standard error.
    static func warn(_ message: String) {
        output.write(message + "\n", to: .standardError)
    }

    /// Waits for a write in progress to end and keeps every later one out: the last words before exit.
    @Sendable static func hold() {
        output.hold()
    }
}

/// The tool's two output streams, written under one lock.
///
/// The command line's one hand-written lock box, on purpose: ``hold()`` keeps the lock for good once
/// the last words are out, which the kit's `Locked` (each `withLock` releases) does not offer, and
/// making that type `package` for this one use would widen the engine's API for nothing else. An `NSLock`,
/// as `Locked` is, for the same reason: TSan sees it whole.
private final class Output: @unchecked Sendable {
    private let lock = NSLock()
    /// Whether a progress line is on the terminal (standard error) now.
    private var progressShown = false
    private static let clearLine = "\r\u{1B}[K"

    func write(_ text: String, to handle: FileHandle) {
        lock.withLock {
            clearProgress()
            handle.write(Data(text.utf8))
        }
    }

    func showProgress(_ line: String) {
        lock.withLock {
            FileHandle.standardError.write(Data((Self.clearLine + line).utf8))
            progressShown = true
        }
    }

    /// Clears the progress line, then keeps the lock for good: nothing may be written after the last words.
    func hold() {
        lock.lock()
        clearProgress()
    }

    private func clearProgress() {
        guard progressShown else { return }
        FileHandle.standardError.write(Data(Self.clearLine.utf8))
        progressShown = false
    }
}

/// A hint's Markdown for the terminal: paragraphs wrapped, the lines of a ```swift fence kept as they
/// are and indented.
func renderMarkdown(_ text: String, width: Int = Terminal.width) -> String {
    var output: [String] = []
    var paragraph: [String] = []
    var inCode = false
    func flush() {
        if !paragraph.isEmpty { output.append(wrap(paragraph.joined(separator: " "), width: width)) }
        paragraph = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        if line.hasPrefix("```") {
            flush()
            inCode.toggle()
        } else if inCode {
            output.append("    " + line)
        } else if line.trimmingCharacters(in: .whitespaces).isEmpty {
            flush()
            if output.last != "" { output.append("") }
        } else {
            paragraph.append(line)
        }
    }
    flush()
    while output.last == "" { output.removeLast() }
    return output.joined(separator: "\n")
}
