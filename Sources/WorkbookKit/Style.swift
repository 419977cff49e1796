import Foundation

/// Colours and symbols for a terminal: colour only on a TTY, and never when `NO_COLOR` is set.
public struct Style: Sendable {
    public var color: Bool

    public init(color: Bool) { self.color = color }

    /// Colour when standard output is a terminal and `NO_COLOR` is unset or empty.
    public static var automatic: Style { automatic(for: STDOUT_FILENO) }

    /// Colour when `descriptor` is a terminal and `NO_COLOR` is unset or empty.
    public static func automatic(for descriptor: Int32) -> Style {
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Style(color: !noColor && isatty(descriptor) == 1)
    }

    public static let plain = Style(color: false)

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    public func green(_ text: String) -> String { paint(text, "32") }
    public func red(_ text: String) -> String { paint(text, "31") }
    public func yellow(_ text: String) -> String { paint(text, "33") }
    public func bold(_ text: String) -> String { paint(text, "1") }
    public func dim(_ text: String) -> String { paint(text, "2") }

    public var pass: String { green("✔") }
    public var fail: String { red("✘") }
}
