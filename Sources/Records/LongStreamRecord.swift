import Foundation
import Metrics

/// One engine on one long stream (`speech-harness bench long-stream`): the whole session's
/// figures and the same figures minute by minute, to show drift.
public struct LongStreamRecord: Codable, Sendable, Hashable {
    public var engine: String
    /// The stream: its WAV file, length and the recordings it joins.
    public var stream: String
    public var audioSeconds: Double
    public var pieces: Int
    public var pacing: String
    public var policy: String
    public var words: ErrorCounts
    /// Engine CPU seconds for the whole stream, and the wall time of the run.
    public var computeSeconds: Double
    public var wallSeconds: Double
    /// Whether the compute is CPU time (`cpu`) or, for an engine that reports none, wall time.
    public var computeClock: String
    /// Per-word latency over the whole stream (P50/P90/P99 with intervals resampled by recording).
    public var hypothesisLatency: LatencyPercentiles?
    public var confirmedLatency: LatencyPercentiles?
    /// From the end of the input to the last final result.
    public var drain: Double?
    public var minutes: [LongStreamMinute]
    /// Why the run failed, when it did; the figures are then empty.
    public var error: String?

    public init(
        engine: String, stream: String, audioSeconds: Double, pieces: Int, pacing: String, policy: String,
        words: ErrorCounts = ErrorCounts(), computeSeconds: Double = 0, wallSeconds: Double = 0,
        computeClock: String = "cpu", hypothesisLatency: LatencyPercentiles? = nil,
        confirmedLatency: LatencyPercentiles? = nil, drain: Double? = nil, minutes: [LongStreamMinute] = [],
        error: String? = nil
    ) {
        self.engine = engine
        self.stream = stream
        self.audioSeconds = audioSeconds
        self.pieces = pieces
        self.pacing = pacing
        self.policy = policy
        self.words = words
        self.computeSeconds = computeSeconds
        self.wallSeconds = wallSeconds
        self.computeClock = computeClock
        self.hypothesisLatency = hypothesisLatency
        self.confirmedLatency = confirmedLatency
        self.drain = drain
        self.minutes = minutes
        self.error = error
    }

    public var wer: Double { words.errorRate }
    /// Engine CPU seconds per audio second over the whole stream.
    public var cpuPerAudioSecond: Double { audioSeconds > 0 ? computeSeconds / audioSeconds : 0 }

    /// The minutes at the start and the end of the stream, `count` of each (fewer when the stream
    /// is shorter than twice that; a one-minute stream's minute is both).
    public func ends(_ count: Int) -> (first: [LongStreamMinute], last: [LongStreamMinute]) {
        let half = max(1, min(count, minutes.count / 2))
        return (Array(minutes.prefix(half)), Array(minutes.suffix(half)))
    }
}
