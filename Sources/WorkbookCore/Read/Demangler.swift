import Foundation

/// Swift's mangled symbols (`$s13Chapter1Latch04makeB0…`) as readable names.
package enum Demangler {
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
