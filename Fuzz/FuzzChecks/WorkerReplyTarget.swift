import Foundation
import SpeechCore
@_spi(Fuzzing) import Workers

extension FuzzTarget {
    /// A line a worker process writes: decoded at the boundary, then read as a hypothesis, as
    /// the worker channel does with every reply.
    static let workerReply = FuzzTarget(
        name: "worker-reply", summary: "one line of a worker's output",
        seeds: ["Tests/Fixtures/fuzz/worker-reply/*"]
    ) { bytes, _ in
        guard let update = try? WorkerReplyReading.hypothesis(line: Data(bytes)) else { return nil }
        for segment in update.finalized + (update.volatile.map { [$0] } ?? []) {
            guard segment.range.start <= segment.range.end else { return "a segment that ends before it starts" }
        }
        return nil
    }
}
