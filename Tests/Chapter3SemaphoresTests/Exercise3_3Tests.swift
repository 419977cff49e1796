import Chapter3Semaphores
import Dispatch
import Testing
import WorkbookTestSupport

@Suite("3.3 DownloadLimiter — at most N at once")
struct Exercise3_3Tests {
    @Test("with two slots, a third job starts only when a running one calls done()")
    func nextStartsOnDone() {
        let jobs = FakeJobs(finish: .held)
        defer { jobs.finishAll() }
        let limiter = Unchecked(DownloadLimiter(maxConcurrent: 2))

        guard callOnAnotherThread(
            "five run(_:) calls did not return within 2 s while every slot was taken — run must not block its caller; let a private queue do the waiting",
            { for id in 1...5 { limiter.value.run(jobs.job(id)) } }
        ) else { return }
        guard jobs.waitUntilStarted(2) else {
            recordTimeout("only \(jobs.started.count) of the first 2 jobs started within 2 s of run(_:), with 2 slots free")
            return
        }
        for finished in 1...3 {
            let startedEarly = jobs.waitUntilStarted(finished + 2, seconds: 0.1)
            #expect(!startedEarly,
                    "job \(finished + 2) started while jobs \(finished) and \(finished + 1) were still running (neither had called done()) — with maxConcurrent 2, a slot is free only when a job calls done()")
            jobs.finishOldest()
            guard jobs.waitUntilStarted(finished + 2) else {
                recordTimeout("job \(finished + 2) did not start within 2 s of a running job calling done() — does done() give its slot back?")
                return
            }
        }
        jobs.finishAll()
        guard jobs.waitUntilFinished(5) else {
            recordTimeout("the last jobs did not all start and finish within 2 s")
            return
        }
        let order = jobs.started, mostAtOnce = jobs.mostAtOnce
        #expect(order == [1, 2, 3, 4, 5], "jobs started in the order \(order); they must start in the order run(_:) was called")
        #expect(mostAtOnce == 2, "\(mostAtOnce) jobs were running at the same time; with maxConcurrent 2 there may be 2, never more")
    }

    @Test("200 jobs from four threads: never more than 3 at once, each runs once, each thread's in order",
          arguments: [AnswerStyle.synchronous, .later])
    func manyThreads(jobsFinish style: AnswerStyle) {
        let jobs = FakeJobs(finish: style)
        defer { jobs.finishAll() }
        let limiter = Unchecked(DownloadLimiter(maxConcurrent: 3))

        guard runConcurrently(threads: 4, iterations: 50, "200 run(_:) calls from 4 threads", { thread, iteration in
            limiter.value.run(jobs.job(thread * 1_000 + iteration))
        }) else { return }
        guard jobs.waitUntilFinished(200) else {
            recordTimeout("only \(jobs.started.count) of 200 jobs started within 2 s — does every done() give its slot back?")
            return
        }
        let started = jobs.started
        let mostAtOnce = jobs.mostAtOnce
        #expect(mostAtOnce <= 3, "\(mostAtOnce) jobs were running at the same time; maxConcurrent is 3 — a slot is free only when a job calls done()")
        let eachOnce = started.count == 200 && Set(started).count == 200
        #expect(eachOnce, "\(started.count) starts of \(Set(started).count) different jobs; each of the 200 must run exactly once")
        for thread in 0..<4 {
            let inOrder = started.filter { $0 / 1_000 == thread } == (0..<50).map { thread * 1_000 + $0 }
            #expect(inOrder, "thread \(thread)'s jobs did not start in the order it called run(_:)")
        }
    }
}
