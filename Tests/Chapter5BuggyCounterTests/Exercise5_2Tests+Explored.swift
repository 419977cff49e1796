import Testing
import WorkbookTestSupport

// 5.2's contract, explored (CompletionExplored.swift): every kind of handed queue, the main queue
// too, called from a thread or from that queue; 0 to 40 pieces of work calling back every way; a
// second call at once and a third from a completion.

extension Exercise5_2Tests: CompletionContract {
    @Test("explored: a serial, concurrent or main queue, called from a thread or from it; 0 to 40 pieces of work calling back before returning, from threads, from the queue, four at once or from another call's completion; calls at once and from a completion")
    func explored() async {
        await Self.explore()
    }
}
