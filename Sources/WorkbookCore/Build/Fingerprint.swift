/// A 64-bit FNV-1a hash: enough to tell that files changed (not a defence against anyone; the
/// classroom lock uses SHA-256).
package struct Fingerprint {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    package mutating func mix<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }

    package var text: String { String(hash, radix: 16) }
}
