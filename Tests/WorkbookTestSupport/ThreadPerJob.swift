/// A task executor that runs every job on a new thread of its own.
///
/// The graded tests block their thread: they wait for a held queue, a deadline, a blocked caller,
/// or (in an exit test) for a child process, whose output Swift Testing reads with blocking reads.
/// On Swift's cooperative pool, which has one thread per core, two such tests would hold both
/// threads of a 2-core machine and the rest would wait their turn, although the waits cost no
/// processor time. ``GradedUnderTSan`` runs each test case with this executor preferred, so every
/// test that waits does so on a thread of its own (Exercises/MEASUREMENTS.md, M18).
///
/// A thread per job, not a pool: a new thread is ordered after the code that started it, as a job is
/// after the code that enqueued it, and no lock shared between jobs gives the Thread Sanitizer
/// orderings between unrelated tests that could hide a race.
final class ThreadPerJob: TaskExecutor {
    static let shared = ThreadPerJob()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        startThread { job.runSynchronously(on: executor) }
    }
}
