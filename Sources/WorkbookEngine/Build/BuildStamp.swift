import Foundation
import WorkbookCore

/// What a successful build in a scratch path read, so that the next check can tell, without asking
/// SwiftPM, that nothing changed since.
///
/// SwiftPM's own answer costs a process and a package graph: measured on Linux x86-64 (2 cores,
/// Swift 6.3.1), a `swift build` with nothing to do took 0.4 to 0.9 s of a warm check's 3 to 4 s.
/// The stamp is the same kind of evidence SwiftPM's build system uses — each input file's path,
/// size, modification time and inode — over every build input (``Layout/buildInputs`` and
/// Package.swift), with the settings Package.swift reads, the `swift` in use and the build's own
/// database and test executable. The inputs are read before the build and kept after it succeeds,
/// so a file changed while the build ran leaves a stamp that no longer matches.
struct BuildStamp: Sendable, Equatable {
    /// What the build reads, a line each: the settings, the `swift` in use, then every input file
    /// as `path size mtime inode`.
    private(set) var inputs: [String]
    /// What the build leaves: its database and the test executable, described the same way.
    private(set) var outputs: [String]

    /// The file the stamp of a scratch path is kept in.
    static func file(in scratchPath: URL, sources: SourceSet) -> URL {
        scratchPath.appendingPathComponent("workbook-built-\(sources.rawValue).stamp")
    }

    /// The stamp of the build `launch` runs — its package, with the variables Package.swift reads,
    /// into its scratch path by its platform's `swift` — as the files are now.
    static func current(of launch: TestLaunch) -> BuildStamp {
        let root = launch.packageRoot, platform = launch.platform
        var inputs = launch.buildEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // The toolchain's own `swift` (not an `xcrun` shim) and what it says it is.
        let swift = platform.swiftExecutable
        inputs.append("swift \(swift) " + describe(URL(fileURLWithPath: swift)) + " " + (platform.toolchain.map { "\($0.version)" } ?? "unknown"))
        let manager = FileManager.default
        for top in [Layout.packageManifest] + Layout.buildInputs {
            let url = root.appendingPathComponent(top)
            inputs.append("\(top) \(describe(url))")
            guard let walk = manager.enumerator(atPath: url.path) else { continue }
            var found: [String] = []
            while let relative = walk.nextObject() as? String { found.append(relative) }
            for relative in found.sorted() {
                inputs.append("\(top)/\(relative) \(describe(url.appendingPathComponent(relative)))")
            }
        }
        let outputs = ["build.db " + describe(launch.scratchPath.appendingPathComponent("build.db")),
                       "tests " + describe(launch.builtFile)]
        return BuildStamp(inputs: inputs, outputs: outputs)
    }

    /// Takes the inputs of `earlier`: a stamp written after a build must describe the inputs as
    /// the build found them, so that one changed while it ran does not look built.
    mutating func keepInputs(of earlier: BuildStamp) {
        inputs = earlier.inputs
    }

    /// The stamp kept in `file`, if any.
    static func kept(in file: URL) -> BuildStamp? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let divider = lines.firstIndex(of: outputsDivider) else { return nil }
        return BuildStamp(inputs: Array(lines[..<divider]), outputs: Array(lines[(divider + 1)...]))
    }

    /// Keeps this stamp in `file` (best effort: without it, the next check only asks SwiftPM).
    func keep(in file: URL) {
        try? (inputs + [Self.outputsDivider] + outputs).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
    }

    /// The line between the inputs and the outputs in a kept stamp.
    private static let outputsDivider = "--- outputs"

    /// Forgets the stamp in `file`: the build there is not known to be whole.
    static func forget(in file: URL) {
        try? FileManager.default.removeItem(at: file)
    }

    /// `size mtime inode` of the file at `url` (following a link), or `absent`.
    private static func describe(_ url: URL) -> String {
        guard let info = try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path) else { return "absent" }
        let size = (info[.size] as? NSNumber)?.uint64Value ?? 0
        let modified = (info[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let inode = (info[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        return "\(size) \(modified) \(inode)"
    }
}
