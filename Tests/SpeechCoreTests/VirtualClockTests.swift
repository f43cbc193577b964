import SpeechCore
import Testing

@Suite("VirtualClock")
struct VirtualClockTests {
    @Test func sleepersWakeWhenTimeReachesTheirDeadline() async throws {
        let clock = VirtualClock()
        let woke = Mutexed<[Int]>([])
        let start = clock.now
        let sleepers = (1...3).map { n in
            Task {
                try await clock.sleep(until: start.advanced(by: .milliseconds(100 * n)), tolerance: nil)
                woke.mutate { $0.append(n) }
            }
        }
        while clock.sleeperCount < 3 { await Task.yield() }
        clock.advance(by: .milliseconds(150))
        _ = try await sleepers[0].value
        #expect(woke.value == [1])
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .milliseconds(200))
        _ = try await sleepers[1].value
        _ = try await sleepers[2].value
        #expect(Set(woke.value) == [1, 2, 3])
        #expect(clock.now == start.advanced(by: .milliseconds(350)))
    }

    @Test func pastDeadlinesReturnAtOnceAndCancellationThrows() async throws {
        let clock = VirtualClock()
        try await clock.sleep(until: clock.now, tolerance: nil)
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(10)), tolerance: nil) }
        while clock.sleeperCount < 1 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }
}

/// A value behind a lock, for tests.
final class Mutexed<T: Sendable>: Sendable {
    private let mutex: Locked<T>
    init(_ value: T) { mutex = Locked(value) }
    var value: T { mutex.withLock { $0 } }
    func mutate(_ body: (inout T) -> Void) { mutex.withLock { body(&$0) } }
}
