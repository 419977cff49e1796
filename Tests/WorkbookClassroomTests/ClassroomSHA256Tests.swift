import Foundation
import Testing
@testable import WorkbookClassroom
@testable import WorkbookCore
@testable import WorkbookEngine
import WorkbookEngineTestSupport

@Suite("Classroom: SHA-256")
struct ClassroomSHA256Tests {
    @Test("FIPS 180-4 test vectors: empty, \"abc\", the 448-bit message, one million \"a\"")
    func standardVectors() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("the digest is 32 bytes, its hex 64 lowercase digits with leading zeros kept")
    func shape() {
        let digest = SHA256.digest(Data("abc".utf8))
        #expect(digest.count == 32)
        #expect(digest[5] == 0x01)
        let hex = SHA256.hex(Data("abc".utf8))
        #expect(hex.contains("8f01cf"), "the byte 0x01 is written 01, not 1")
        #expect(hex.count == 64 && hex.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }

    @Test("padding edges (55, 56, 63, 64, 65, 119, 120 bytes) agree with sha256sum",
          .enabled(if: ClassroomFixture.program("sha256sum") != nil, "sha256sum is not on PATH"))
    func paddingEdges() throws {
        let folder = try ClassroomFixture.scratch("sha")
        defer { try? FileManager.default.removeItem(at: folder) }
        for length in [55, 56, 63, 64, 65, 119, 120] {
            let data = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            let file = folder.appendingPathComponent("\(length).bin")
            try data.write(to: file)
            let result = try ChildProcess.run("sha256sum", [file.path], timeLimit: 30)
            #expect(result.termination == .exited(0))
            #expect(SHA256.hex(data) == String(result.output.prefix(64)), "length \(length)")
        }
    }
}
