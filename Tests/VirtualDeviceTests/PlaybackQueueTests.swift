import Testing
import VirtualDevice

/// A player's queue as a value: render cycles in, samples and finished segments out.
@Suite("Playback queue")
struct PlaybackQueueTests {
    static func ramp(_ count: Int, from start: Float = 1) -> [Float] { (0..<count).map { start + Float($0) } }

    @Test func segmentsPlayInOrderAndFinishInTheCycleOfTheirLastFrame() {
        var queue = PlaybackQueue<String>(channelCount: 1)
        queue.schedule([Self.ramp(5)], token: "a")
        queue.schedule([Self.ramp(3, from: 10)], token: "b")
        let first = queue.render(frames: 4)
        #expect(first.channels == [[1, 2, 3, 4]])
        #expect(first.finished.isEmpty)
        let second = queue.render(frames: 4)
        #expect(second.channels == [[5, 10, 11, 12]])
        #expect(second.finished == ["a", "b"])
        // Nothing left: a cycle is silence, and the timeline goes on.
        #expect(queue.isEmpty)
        #expect(queue.render(frames: 2).channels == [[0, 0]])
        #expect(queue.playerFrame == 10)
    }

    @Test func aSegmentAtATimeWaitsInSilence() {
        var queue = PlaybackQueue<Int>(channelCount: 2)
        queue.schedule([[7, 8], [-7, -8]], at: 3, token: 1)
        let cycle = queue.render(frames: 6)
        #expect(cycle.channels == [[0, 0, 0, 7, 8, 0], [0, 0, 0, -7, -8, 0]])
        #expect(cycle.finished == [1])
    }

    @Test func aMonoSegmentFillsEveryChannel() {
        var queue = PlaybackQueue<Int>(channelCount: 2)
        queue.schedule([[1, 2]], token: 1)
        #expect(queue.render(frames: 2).channels == [[1, 2], [1, 2]])
    }

    @Test func aLoopingSegmentPlaysUntilRemoved() {
        var queue = PlaybackQueue<String>(channelCount: 1)
        queue.schedule([[1, 2, 3]], loops: true, token: "loop")
        let cycle = queue.render(frames: 7)
        #expect(cycle.channels == [[1, 2, 3, 1, 2, 3, 1]])
        #expect(cycle.finished.isEmpty)
        #expect(queue.removeAll(keepingTimeline: true) == ["loop"])
        #expect(queue.playerFrame == 7)
    }

    @Test func removingEverythingAnswersEachSegmentAndRestartsTheTimeline() {
        var queue = PlaybackQueue<String>(channelCount: 1)
        queue.schedule([Self.ramp(4)], token: "a")
        queue.schedule([Self.ramp(4)], token: "b")
        _ = queue.render(frames: 2)
        #expect(queue.removeAll() == ["a", "b"])
        #expect(queue.playerFrame == 0)
        #expect(queue.isEmpty)
    }

    @Test func anEmptySegmentFinishesWhenReached() {
        var queue = PlaybackQueue<String>(channelCount: 1)
        queue.schedule([[]], token: "empty")
        queue.schedule([[5]], token: "next")
        let cycle = queue.render(frames: 2)
        #expect(cycle.channels == [[5, 0]])
        #expect(cycle.finished == ["empty", "next"])
    }
}
