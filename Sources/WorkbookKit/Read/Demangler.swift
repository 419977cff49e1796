import Foundation

/// Turns Swift's mangled symbols (`$s13Chapter1Latch04makeB0…`) in a text into readable names, with
/// the toolchain's `swift demangle`. Text it cannot run on comes back unchanged.
public enum Demangler {
    public static func demangle(_ text: String) -> String {
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

extension Demangler {
    /// One mangled symbol (`$s13Chapter1Latch…`) as the Swift runtime demangles it, in this process
    /// (`swift_demangle`, exported by the Swift runtime on every platform: swift/Demangling/Demangle.h);
    /// `nil` when it is no Swift symbol.
    static func demangle(symbol: String) -> String? {
        guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") else { return nil }
        return symbol.withCString { name in
            guard let demangled = swift_demangle(name, strlen(name), nil, nil, 0) else { return nil }
            defer { free(demangled) }
            return String(cString: demangled)
        }
    }
}

@_silgen_name("swift_demangle")
private func swift_demangle(_ mangledName: UnsafePointer<CChar>, _ mangledNameLength: Int,
                            _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?,
                            _ flags: UInt32) -> UnsafeMutablePointer<CChar>?
