import Dispatch

// Exercise 3.3 — at most N downloads at once.
//
// `run(_:)` takes a job that starts some work and calls its argument (`done`) when that work is
// finished — maybe before it returns, maybe later, from any thread. The contract:
// - `run(_:)` may be called from any thread and returns at once, even when every slot is taken.
//   It never runs a job on its caller's thread.
// - At most `maxConcurrent` jobs are between their start and their `done()` at any moment, however
//   long `done()` takes — and when slots are free, up to `maxConcurrent` jobs do run at once.
// - A slot is free again when its job calls `done()` (once per job), from any thread — even from
//   several threads at the same moment.
// - Every job runs exactly once, in the order `run(_:)` was called (from several threads at once:
//   each thread's jobs in its order).
// - A job may call `done()` before it returns, and may call `run(_:)`.
// - The limiter may be released while jobs are running or waiting; the waiting ones still run, and
//   every `done()` must still work.
//
// Stuck? `swift run workbook hint 3.3` asks a question about the failure, one step at a time.

/// Runs asynchronous jobs, never more than `maxConcurrent` of them at once.
public final class DownloadLimiter {
    private let queue = DispatchQueue(label: "workbook.download-limiter")
    private let freeSlots: DispatchSemaphore

    /// - Parameter maxConcurrent: how many jobs may run at once; at least 1.
    public init(maxConcurrent: Int) {
        precondition(maxConcurrent > 0, "DownloadLimiter needs room for at least one job")
        freeSlots = DispatchSemaphore(value: maxConcurrent)
    }

    /// Starts `job` as soon as a slot is free. `job` must call its argument exactly once, when done.
    public func run(_ job: @escaping (@escaping () -> Void) -> Void) {
        queue.async { [self] in
            freeSlots.wait()
            job {}
            freeSlots.signal()  // the job has been started, so its slot is free again
        }
    }
}
