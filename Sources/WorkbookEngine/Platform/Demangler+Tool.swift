import Foundation
import WorkbookCore

/// Turns Swift's mangled symbols (`$s13Chapter1Latch04makeB0…`) in a text into readable names, with
/// the toolchain's `swift demangle`. Text it cannot run on comes back unchanged.
extension Demangler {
    package static func demangle(_ text: String) -> String {
        guard text.contains("$s") else { return text }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-demangle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        guard (try? text.write(to: file, atomically: true, encoding: .utf8)) != nil,
              let result = try? ChildProcess.run("/bin/sh", ["-c", "swift demangle --simplified < '\(file.path)'"], timeLimit: 30),
              result.termination == .exited(0), !result.outputTruncated
        else { return text }
        return result.output
    }
}

