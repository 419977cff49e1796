import Foundation
import WorkbookCore
import WorkbookEngine

/// Where untrusted code (a student's submission) runs on the teacher's machine: a folder of its
/// own, and on Linux no network and a read-only view of everything else.
///
/// What it gives, on Linux with unprivileged user namespaces (`unshare -rnm`): a new network
/// namespace with only a loopback device (no connection leaves the machine); a mount namespace in
/// which every file system is read-only except the sandbox's folder; an environment with nothing of
/// the teacher's but `PATH` and the variables that select the toolchain (a private `HOME` and `TMPDIR`
/// inside the folder); limits on CPU time
/// per process and on the size of any file written. Everywhere: the grader's time limit on the
/// whole run and its cap on output.
///
/// What it does not give: it is not a container. The code runs as the teacher's user (mapped to
/// root inside the namespace), can read what that user can read, and can use memory and processes
/// without a limit (the Thread Sanitizer reserves terabytes of address space, so an address-space
/// limit would stop every build). Without user namespaces (macOS, some Linux hosts) only the
/// folder, the environment, the limits and the time limit remain — ``isolation`` says which.
package struct Sandbox: Sendable {
    /// The folder the code may write to; `home` and `tmp` are made inside it.
    var folder: URL
    /// Whose toolchain variables the bare environment keeps, and whose isolation applies.
    var platform: Platform
    /// CPU seconds any one process may use.
    var cpuSeconds = 1_800
    /// The largest file any process may write, in bytes.
    var fileBytes: Int64 = 4 << 30

    package init(folder: URL, platform: Platform) {
        self.folder = folder
        self.platform = platform
    }

    /// How much of the isolation this machine gives.
    package enum Isolation: String, Sendable {
        /// Network and file system isolated (Linux user namespaces).
        case namespaces
        /// Folder, environment and limits only.
        case limitsOnly = "limits only"
    }

    /// What `platform` supports on this machine (see ``Platform/canIsolateSubmissions``).
    package static func isolation(on platform: Platform) -> Isolation {
        platform.canIsolateSubmissions ? .namespaces : .limitsOnly
    }

    /// The command that runs `executable arguments` inside the sandbox with `environment` (and
    /// nothing else of this process's environment but `PATH` and ``Platform/toolchainVariables``),
    /// standard output going to `stdoutFile`.
    func command(_ executable: String, _ arguments: [String], environment: [String: String],
                        stdoutFile: URL) throws -> (executable: String, arguments: [String]) {
        let home = folder.appendingPathComponent("home"), tmp = folder.appendingPathComponent("tmp")
        for made in [home, tmp] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        let mine = ProcessInfo.processInfo.environment
        var variables = ["PATH": mine["PATH"] ?? "/usr/bin:/bin", "HOME": home.path, "TMPDIR": tmp.path]
        for name in platform.toolchainVariables { variables[name] = mine[name] }
        for (key, value) in environment { variables[key] = value }
        let envArguments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let isolated = Self.isolation(on: platform) == .namespaces
        let inner = ["sh", "-c", Self.script, "sandbox", folder.path, stdoutFile.path, String(cpuSeconds),
                     String(fileBytes / 512), isolated ? "isolate" : "plain", "env", "-i"] + envArguments + [executable] + arguments
        return isolated ? ("unshare", ["-rnm", "--"] + inner) : (inner[0], Array(inner.dropFirst()))
    }

    /// Run by `sh -c`: `$1` the folder, `$2` the standard output file, `$3` CPU seconds, `$4` file
    /// size in 512-byte blocks, `$5` `isolate` inside fresh namespaces (only then: outside them these
    /// mounts would change the machine's own), then the command. Isolating makes every other file
    /// system read-only; the folder is bound onto itself first, so it stays writable.
    static let script = #"""
        set -e
        folder="$1"; out="$2"; cpu="$3"; blocks="$4"; mode="$5"; shift 5
        if [ "$mode" = isolate ]; then
            mount --bind "$folder" "$folder"
            for point in $(awk '{print $2}' /proc/self/mounts | sort -u); do
                case "$point" in /proc|/proc/*|/sys|/sys/*|/dev|/dev/pts) continue ;; esac
                [ "$point" = "$folder" ] && continue
                mount -o remount,bind,ro "$point" 2>/dev/null || true
            done
        fi
        ulimit -t "$cpu"
        ulimit -f "$blocks"
        exec "$@" > "$out"
        """#
}
