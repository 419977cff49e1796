import Foundation

/// The Swift toolchain the workbook builds and tests with: its version, the floor the suites need,
/// and the Swift Testing event-stream version that toolchain speaks.
package struct Toolchain: Sendable, Equatable {
    /// A Swift version, major.minor (the patch never changes what the workbook needs).
    package struct Version: Sendable, Equatable, Comparable, CustomStringConvertible {
        var major: Int
        var minor: Int

        package init(_ major: Int, _ minor: Int) {
            self.major = major
            self.minor = minor
        }

        package static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
        }

        package var description: String { "\(major).\(minor)" }
    }

    /// The oldest Swift the workbook supports: the chapter suites pass values into exit tests through
    /// a capture list (`#expect(processExitsWith: …) { [cutShort = …] in`), which Swift Testing
    /// accepts from its 6.3 release on. Its 6.2 releases reject a capture clause unless the package
    /// trait `ExperimentalExitTestValueCapture` is on, which the toolchain's own build of the macros
    /// never defines (swift-testing at `swift-6.2-RELEASE`: `Sources/TestingMacros/ConditionMacro.swift`,
    /// `isValueCapturingEnabled`; its Package.swift defines it unasked only in untagged development
    /// builds, and its CMake build not at all). "Enable exit test value capturing" (#1165) is in
    /// `swift-6.3-RELEASE`, whose exit-testing article says a capture list passes values in.
    /// Package.swift's `swift-tools-version` says the same, so an older SwiftPM stops before
    /// building anything; a unit test holds the two, the README and CI to this one value.
    package static let floor = Version(6, 3)

    /// The first Xcode whose Swift is at ``floor``, for the sentences that say what to install.
    /// Apple's "Xcode system requirements" table gives Swift 6.2.3 for Xcode 26.2 and 26.3, so the
    /// first Xcode with Swift 6.3 comes after them: 26.4. Nothing decides by this number — the floor
    /// is checked on `swift --version`, and so is the macOS CI job's Xcode.
    package static let floorXcode = "26.4"

    /// The version of the `swift` this was read from.
    package var version: Version

    package init(version: Version) { self.version = version }

    /// Reads the version from `swift --version`'s output: "Swift version 6.3.1 (swift-6.3.1-RELEASE)"
    /// (swift.org) or "swift-driver version: 1.127.14.1 Apple Swift version 6.2 (swiftlang-…)" (Xcode).
    package init?(versionOutput: String) {
        guard let match = versionOutput.firstMatch(of: /Swift version (\d+)\.(\d+)/),
              let major = Int(match.1), let minor = Int(match.2) else { return nil }
        version = Version(major, minor)
    }

    /// Whether the suites can be built with it.
    var meetsFloor: Bool { version >= Self.floor }

    /// What a learner with an older toolchain reads, in one sentence, or `nil` when it is new enough.
    package var floorProblem: String? {
        meetsFloor ? nil : Says.toolchainBelowFloor(found: version, floor: Self.floor)
    }

    /// The `--event-stream-version` this toolchain's `swift test` and test runner accept and the
    /// grader reads: SwiftPM before 6.3 declares the option as a whole number (schema 0, whose
    /// experimental fields are spelled with an underscore); from 6.3 on it takes "6.3".
    var eventStreamVersion: String {
        version >= Version(6, 3) ? "6.3" : "0"
    }

    /// The Swift Testing arguments that write the event stream to `path`.
    package func eventStreamArguments(to path: String) -> [String] {
        ["--event-stream-output-path", path, "--event-stream-version", eventStreamVersion]
    }
}
