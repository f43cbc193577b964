import Testing

@testable import SpeechReference

/// The executor's job queue as a table: each row is a sequence of events and what each answers,
/// with the queue's state after it. Jobs are plain letters.
@Suite("Engine job queue")
struct EngineJobQueueTests {
    enum Event {
        case inPlace
        case enqueue(String)
        case next
    }

    /// What an event answered: whether in-place work may run, where a queued job went, the next job.
    enum Answer: Equatable {
        case runsInPlace(Bool)
        case arrived(EngineJobQueue<String>.Arrival)
        case next(String?)
    }

    static func play(_ events: [Event]) -> (answers: [Answer], waiting: [String]?) {
        var queue = EngineJobQueue<String>()
        var answers: [Answer] = []
        for event in events {
            switch event {
            case .inPlace: answers.append(.runsInPlace(queue.startInPlace()))
            case .enqueue(let job): answers.append(.arrived(queue.enqueue(job)))
            case .next: answers.append(.next(queue.next()))
            }
        }
        guard case .running(let waiting) = queue.state else { return (answers, nil) }
        return (answers, waiting)
    }

    /// `waiting` nil: the queue is idle at the end.
    @Test(arguments: [
        // Idle: in-place work runs at once, and with nothing after it the queue is idle again.
        ([Event.inPlace, .next], [Answer.runsInPlace(true), .next(nil)], nil as [String]?),
        // A job that arrives while in-place work runs waits for it, then runs, in order.
        (
            [.inPlace, .enqueue("a"), .enqueue("b"), .next, .next, .next],
            [.runsInPlace(true), .arrived(.queued), .arrived(.queued), .next("a"), .next("b"), .next(nil)], nil
        ),
        // A job that arrives at an idle queue needs a runner; later ones queue behind it.
        (
            [.enqueue("a"), .enqueue("b"), .next],
            [.arrived(.startRunner), .arrived(.queued), .next("a")], ["b"]
        ),
        // Work that could run in place while jobs run must queue instead (engines never overlap).
        ([.enqueue("a"), .inPlace], [.arrived(.startRunner), .runsInPlace(false)], ["a"]),
        // Once idle again, the next arrival needs a runner again.
        (
            [.enqueue("a"), .next, .next, .enqueue("b")],
            [.arrived(.startRunner), .next("a"), .next(nil), .arrived(.startRunner)], ["b"]
        ),
        // Asking an idle queue for work gives nothing and leaves it idle.
        ([.next], [.next(nil)], nil),
    ])
    func rows(events: [Event], answers: [Answer], waiting: [String]?) {
        let played = Self.play(events)
        #expect(played.answers == answers)
        #expect(played.waiting == waiting)
    }

    @Test func idleMeansNothingRunsOrWaits() {
        var queue = EngineJobQueue<String>()
        #expect(queue.isIdle)
        _ = queue.enqueue("a")
        #expect(!queue.isIdle)
        _ = queue.next()
        #expect(!queue.isIdle, "a runs until the runner asks for the next job")
        _ = queue.next()
        #expect(queue.isIdle)
    }
}
