import Foundation
import WorkbookCore
import WorkbookEngine

/// A TCP listener on 127.0.0.1 that counts the connections it accepts: what the classroom drill
/// proves the sandbox's network isolation against. Something the drill owns, on the loopback
/// interface outside the sandbox — never an address of the outside world.
///
/// Code outside the sandbox reaches it (``probe()`` shows that, so the check can fail); code inside
/// a sandbox with a network namespace of its own cannot, since that namespace has a loopback device
/// of its own.
/// (`@unchecked`: the dispatch source is not marked `Sendable`; it is set up once, in `init`, and then
/// only cancelled.)
package final class LoopbackListener: @unchecked Sendable {
    /// The port the system chose, in host byte order.
    package let port: UInt16
    private let source: any DispatchSourceRead
    private let count = Locked(0)

    /// Listens on an ephemeral port of 127.0.0.1 until ``stop()``.
    package init() throws {
        let made = Self.streamSocket()
        guard made >= 0 else { throw WorkbookError.drillSetUp("no socket for the loopback listener (\(String(cString: strerror(errno))))") }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(made, address, length) == 0 && listen(made, 8) == 0 && getsockname(made, address, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(made)
            throw WorkbookError.drillSetUp("no listener on 127.0.0.1 (\(reason))")
        }
        port = UInt16(bigEndian: address.sin_port)
        source = DispatchSource.makeReadSource(fileDescriptor: made, queue: DispatchQueue(label: "classroom-drill-listener"))
        let count = count
        source.setEventHandler {
            let accepted = accept(made, nil, nil)
            guard accepted >= 0 else { return }
            close(accepted)
            count.withLock { $0 += 1 }
        }
        source.setCancelHandler { close(made) }
        source.resume()
    }

    /// The connections accepted so far.
    package var connections: Int { count.value }

    /// Connects to the listener from this process (outside any sandbox); `true` when it connected and
    /// the listener counted the connection within five seconds.
    package func probe() -> Bool {
        let before = connections
        let made = Self.streamSocket()
        guard made >= 0 else { return false }
        defer { close(made) }
        var address = Self.loopback(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(made, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return false }
        let deadline = Date().addingTimeInterval(5)
        while connections == before && Date() < deadline { usleep(10_000) }
        return connections > before
    }

    /// Stops listening and closes the socket.
    package func stop() { source.cancel() }

    /// 127.0.0.1 at `port` (host byte order).
    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A new IPv4 TCP socket. (`SOCK_STREAM` is an `Int32` in Darwin's C library and an enumeration
    /// in Glibc's; the two overloads of ``cInt(_:)`` take either, with no platform condition.)
    private static func streamSocket() -> Int32 {
        socket(AF_INET, cInt(SOCK_STREAM), 0)
    }

    private static func cInt<Value: BinaryInteger>(_ value: Value) -> Int32 { Int32(value) }
    private static func cInt<Value: RawRepresentable>(_ value: Value) -> Int32 where Value.RawValue: BinaryInteger {
        Int32(value.rawValue)
    }
}
