import Foundation

/// Colours and symbols for a terminal: colour only on a TTY, and never when `NO_COLOR` is set.
package struct Style: Sendable {
    var color: Bool

    package init(color: Bool) { self.color = color }

    /// Colour when `descriptor` is a terminal and `environment` does not set `NO_COLOR`.
    package static func automatic(for descriptor: Int32 = STDOUT_FILENO, in environment: WorkbookEnvironment) -> Style {
        Style(color: !environment.noColor && isatty(descriptor) == 1)
    }

    static let plain = Style(color: false)

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    package func green(_ text: String) -> String { paint(text, "32") }
    package func red(_ text: String) -> String { paint(text, "31") }
    package func yellow(_ text: String) -> String { paint(text, "33") }
    package func bold(_ text: String) -> String { paint(text, "1") }
    package func dim(_ text: String) -> String { paint(text, "2") }

    /// `text` with every terminal escape sequence (colours, cursor moves) removed: what a pipe or a
    /// file should get, whatever the text came from (Swift Testing's console output colours its lines).
    static func removingEscapes(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else { output.append(scalar); continue }
            // CSI: ESC [ parameters… final byte in @…~.
            guard let next = scalars.next(), next == "[" else { continue }
            while let byte = scalars.next(), !(0x40...0x7E).contains(byte.value) {}
        }
        return String(output)
    }

    /// `text` as this style may print it: unchanged with colour, without any escape sequence otherwise.
    package func fitting(_ text: String) -> String { color ? text : Self.removingEscapes(text) }

    package var pass: String { green("✔") }
    package var fail: String { red("✘") }
}
