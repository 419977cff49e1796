import Foundation
import WorkbookCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a finished child left behind.
package struct ChildResult: Sendable {
    package var termination: Termination
    /// Standard output and error, interleaved, capped (see ``ChildProcess/outputCap``).
    package var output: String
    /// `true` if output was dropped to stay under the cap.
    var outputTruncated: Bool
    package var seconds: Double
    /// The child's process id (for a crash report written by a process it started).
    var pid: Int32 = 0
}

/// Runs a program in its own process group, with a watchdog and a cap on its output.
///
/// Killing only `swift test` orphans the test binary it started, so every child here leads its own
/// process group and the whole group is killed — on timeout, and when the user presses Ctrl-C — or,
/// for `swift test`, whose runner leads a group of its own, what ``Stopping`` says.
package enum ChildProcess {
    /// This process becomes `executable` (`execve`), with `arguments` (the first its name) and
    /// exactly `environment`, after flushing what it has written; as `swift run` starts the product
    /// it built, every signal first back to its default and unblocked (what a process ignores or
    /// blocks outlives `execve`, and this one ignores the interrupts it watches through Dispatch —
    /// SwiftPM's `SwiftRunCommand.swift`, `execute(path:args:)`, does the same). Returns only when it
    /// could not, with why.
    static func replaceProcess(with executable: String, _ arguments: [String], environment: [String: String]) -> String {
        fflush(nil)
        for number in 1..<NSIG { signal(number, SIG_DFL) }
        var all = sigset_t()
        sigfillset(&all)
        sigprocmask(SIG_UNBLOCK, &all, nil)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        execve(executable, &argv, &envp)
        return String(cString: strerror(errno))
    }

    /// At most this many bytes of output are kept: the first half and the last half.
    static let outputCap = 256 * 1024

    /// Runs `executable` with `arguments`, adding `environment` to this process's environment;
    /// `onLine` sees each line of output as it comes (for progress).
    ///
    /// The watchdog kills the child's process group after `timeLimit` seconds in all, or when
    /// `idleLimit.file` has not grown for `idleLimit.seconds` once it has begun (a test run whose
    /// event stream goes quiet is stuck: every test's own waits are far shorter). Until the file's
    /// first bytes — the runner starting up, `swift test` planning on macOS — only `timeLimit` counts.
    package static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        timeLimit: Double? = nil,
        idleLimit: (file: URL, seconds: Double)? = nil,
        stopping: Stopping = .group,
        children: RunningChildren = .shared,
        onLine: (@Sendable (String) -> Void)? = nil
    ) throws -> ChildResult {
        let start = Date()
        var pipe: [Int32] = [0, 0]
        guard pipe.withUnsafeMutableBufferPointer({ makePipe($0.baseAddress!) }) == 0 else {
            throw WorkbookError.cannotStart(executable: executable, reason: "no pipe for its output (\(String(cString: strerror(errno))))")
        }
        let readEnd = pipe[0], writeEnd = pipe[1]

        // On Darwin both spawn types are opaque pointers (`<spawn.h>`), on Linux structures, as
        // SwiftPM's AsyncProcess declares them.
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        let devNull = open("/dev/null", O_RDONLY)
        if devNull >= 0 { posix_spawn_file_actions_adddup2(&actions, devNull, 0) }

        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        var pid: pid_t = 0
        let status = executable.contains("/")
            ? posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            : posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        close(writeEnd)
        if devNull >= 0 { close(devNull) }
        guard status == 0 else {
            close(readEnd)
            throw WorkbookError.cannotStart(executable: executable, reason: String(cString: strerror(status)))
        }
        children.add(pid, stopping: stopping)
        defer { children.remove(pid) }

        // Read the output on another thread so a chatty child never blocks on a full pipe.
        let collector = OutputCollector(cap: outputCap)
        let reading = DispatchSemaphore(value: 0)
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var partial: [UInt8] = []
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count <= 0 { break }
                collector.append(buffer[0..<count])
                guard let onLine else { continue }
                partial += buffer[0..<count]
                while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                    onLine(String(decoding: partial[..<newline], as: UTF8.self))
                    partial.removeSubrange(...newline)
                }
            }
            close(readEnd)
            reading.signal()
        }
        reader.start()

        // The watchdog: kill the whole group when the time is up or the child went quiet.
        let killed = Locked(false), finished = Locked(false)
        let idleSeconds = Locked<Double?>(nil)
        let watching = DispatchSemaphore(value: 0)
        if timeLimit != nil || idleLimit != nil {
            let child = pid
            let watchdog = Thread {
                var lastSize: Int64 = -1
                var lastChange = Date()
                while !finished.value {
                    let now = Date()
                    if let timeLimit, now.timeIntervalSince(start) > timeLimit { break }
                    if let idleLimit {
                        let size = (try? FileManager.default.attributesOfItem(atPath: idleLimit.file.path)[.size] as? Int64) ?? 0
                        if size != lastSize || size == 0 { lastSize = size; lastChange = now }
                        if now.timeIntervalSince(lastChange) > idleLimit.seconds {
                            idleSeconds.set(idleLimit.seconds)
                            break
                        }
                    }
                    usleep(100_000)
                }
                if !finished.value {
                    killed.set(true)
                    stopping.stop(child) { finished.value }
                }
                watching.signal()
            }
            watchdog.start()
        } else {
            watching.signal()
        }

        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) == -1 && errno == EINTR {}
        finished.set(true)
        watching.wait()
        // Leftover grandchildren (an exit test's child, a backtracer) must not outlive the run.
        stopping.leftovers(of: pid)
        // The pipe closes once every holder of its write end is gone.
        _ = reading.wait(timeout: .now() + 5)

        let termination: Termination
        if killed.value {
            termination = .timedOut(seconds: Date().timeIntervalSince(start), quiet: idleSeconds.value)
        } else if waitStatus & 0x7f == 0 {
            termination = .exited((waitStatus >> 8) & 0xff)
        } else {
            termination = .signaled(waitStatus & 0x7f)
        }
        let (text, truncated) = collector.text
        return ChildResult(
            termination: termination, output: text, outputTruncated: truncated,
            seconds: Date().timeIntervalSince(start), pid: pid)
    }
}

private func makePipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 { pipe(fds) }
