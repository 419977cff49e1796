import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import WorkbookKit

/// What the tool knows about the terminal it talks to.
enum Terminal {
    /// The widest a paragraph is wrapped, even on a wide terminal: longer lines are hard to read.
    static let readableWidth = 100

    /// Columns to wrap text at: the terminal's width when standard output is one (up to
    /// ``readableWidth``), else `COLUMNS`, else ``readableWidth``.
    static var width: Int {
        if let columns = windowColumns(STDOUT_FILENO), columns >= 40 { return min(columns, readableWidth) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns >= 40 {
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
        let pager = ProcessInfo.processInfo.environment["PAGER"].flatMap { $0.isEmpty ? nil : $0 } ?? "less"
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

    /// Taken around every write, so that the interrupt's message never lands inside another one.
    private static let output = NSLock()

    /// Prints `text` and a newline to standard output.
    static func say(_ text: String) {
        output.withLock {
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }

    /// Writes a line to standard error (dimmed on a terminal), so standard output stays clean for --json.
    static let progress: @Sendable (String) -> Void = { line in
        warn(Style.automatic(for: STDERR_FILENO).dim(line))
    }

    /// Writes a message to standard error.
    static func warn(_ message: String) {
        output.withLock {
            FileHandle.standardError.write(Data((message + "\n").utf8))
        }
    }

    /// Waits for a write in progress to end and keeps every later one out: the last words before exit.
    @Sendable static func hold() {
        output.lock()
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
