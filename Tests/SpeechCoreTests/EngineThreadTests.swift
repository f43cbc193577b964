import SpeechCore
import Testing

@Suite("Engine threads")
struct EngineThreadTests {
    actor Counter {
        var count = 0
        /// Whether this actor's code ran on an engine thread.
        func increment() -> Bool {
            count += 1
            return EngineThread.mayBlock
        }
    }

    @Test func workThatPrefersAnEngineThreadRunsThereActorsIncluded() async {
        let thread = EngineThread.take()
        defer { thread.giveBack() }
        let counter = Counter()
        #expect(!EngineThread.mayBlock)
        #expect(await Task { await counter.increment() }.value == false)
        let there = await Task(executorPreference: thread) { () async -> [Bool] in
            let before = EngineThread.mayBlock
            let inActor = await counter.increment()
            return [before, inActor, EngineThread.mayBlock]
        }.value
        #expect(there == [true, true, true])
        #expect(await counter.count == 2)
    }

    @Test func theCurrentThreadIsHandedToTasksStartedFromTheWork() async {
        let thread = EngineThread.take()
        defer { thread.giveBack() }
        #expect(EngineThread.current == nil)
        let inner = await Task(executorPreference: thread) {
            await EngineThread.$current.withValue(thread) {
                await Task(executorPreference: EngineThread.current) { EngineThread.mayBlock }.value
            }
        }.value
        #expect(inner)
    }

    @Test func jobsRunInTheOrderTheyCame() async {
        let thread = EngineThread.take()
        defer { thread.giveBack() }
        let order = await Task(executorPreference: thread) { () async -> [Int] in
            await withTaskGroup(of: Int.self) { group in
                for i in 0..<50 { group.addTask { i } }
                var seen: [Int] = []
                for await i in group { seen.append(i) }
                return seen
            }
        }.value
        // Child tasks inherit the preference; one thread runs them one at a time, first come first.
        #expect(order == Array(0..<50))
    }
}
