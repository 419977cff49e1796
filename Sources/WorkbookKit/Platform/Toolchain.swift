import Foundation

/// The Swift toolchain the workbook builds and tests with: its version, the floor the suites need,
/// and the Swift Testing event-stream version that toolchain speaks.
public struct Toolchain: Sendable, Equatable {
    /// A Swift version, major.minor (the patch never changes what the workbook needs).
    public struct Version: Sendable, Equatable, Comparable, CustomStringConvertible {
        var major: Int
        var minor: Int

        public init(_ major: Int, _ minor: Int) {
            self.major = major
            self.minor = minor
        }

        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
        }

        public var description: String { "\(major).\(minor)" }
    }

    /// The oldest Swift the workbook supports: the chapter suites use exit tests
    /// (`#expect(processExitsWith:)`), public in Swift Testing since Swift 6.2 (Xcode 26). Package.swift's
    /// `swift-tools-version` says the same, so an older SwiftPM stops before building anything.
    public static let floor = Version(6, 2)

    /// The version of the `swift` this was read from.
    var version: Version

    public init(version: Version) { self.version = version }

    /// Reads the version from `swift --version`'s output: "Swift version 6.3.1 (swift-6.3.1-RELEASE)"
    /// (swift.org) or "swift-driver version: 1.127.14.1 Apple Swift version 6.2 (swiftlang-…)" (Xcode).
    public init?(versionOutput: String) {
        guard let match = versionOutput.firstMatch(of: /Swift version (\d+)\.(\d+)/),
              let major = Int(match.1), let minor = Int(match.2) else { return nil }
        version = Version(major, minor)
    }

    /// The toolchain the `swift` on PATH belongs to, asked once; `nil` when it cannot be asked.
    public static let current: Toolchain? = {
        guard let result = try? ChildProcess.run("swift", ["--version"], timeLimit: 60),
              result.termination == .exited(0) else { return nil }
        return Toolchain(versionOutput: result.output)
    }()

    /// Whether the suites can be built with it.
    var meetsFloor: Bool { version >= Self.floor }

    /// What a learner with an older toolchain reads, in one sentence, or `nil` when it is new enough.
    public var floorProblem: String? {
        meetsFloor ? nil : Says.toolchainBelowFloor(found: version, floor: Self.floor)
    }

    /// The `--event-stream-version` this toolchain's `swift test` and test runner accept and the
    /// grader reads: SwiftPM before 6.3 declares the option as a whole number (schema 0, whose
    /// experimental fields are spelled with an underscore); from 6.3 on it takes "6.3".
    var eventStreamVersion: String {
        version >= Version(6, 3) ? "6.3" : "0"
    }

    /// The Swift Testing arguments that write the event stream to `path`.
    func eventStreamArguments(to path: String) -> [String] {
        ["--event-stream-output-path", path, "--event-stream-version", eventStreamVersion]
    }

    /// The toolchain in use, or, when `swift --version` cannot be read, the newest the workbook knows.
    static var inUse: Toolchain { current ?? Toolchain(version: Version(6, 3)) }
}
