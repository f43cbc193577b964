import Foundation
import Metrics
import Records
import SpeechCore

/// Streams one ``LongStream`` through SpeechAnalyzer + SpeechTranscriber on an engine, as
/// `bench` streams an utterance, reading CPU time and memory as the audio goes, and scores it
/// minute by minute.
public struct LongStreamRun: Sendable {
    public var engine: any RecognitionEngine
    public var pacing: Pacing
    public var policy: ScoringPolicy
    /// Audio seconds between memory readings.
    public var memoryEvery: Double

    public init(
        engine: any RecognitionEngine, pacing: Pacing = .simulated, policy: ScoringPolicy, memoryEvery: Double = 5
    ) {
        self.engine = engine
        self.pacing = pacing
        self.policy = policy
        self.memoryEvery = memoryEvery
    }

    /// The figures, and what they were computed from (kept beside them so that they can be
    /// computed again without streaming again).
    public struct Outcome: Sendable {
        public var record: LongStreamRecord
        public var trace: LongStreamTrace?
    }

    public func run(_ stream: LongStream) async -> Outcome {
        var record = LongStreamRecord(
            engine: engine.name, stream: stream.path, audioSeconds: stream.audioSeconds, pieces: stream.pieces.count,
            pacing: pacing.rawValue, policy: policy.name)
        let readings = Locked([LongStreamSamples.Reading]())
        let engine = self.engine, every = memoryEvery
        let probe: UtteranceRun.Probe = { audio, compute in
            let last = readings.withLock { $0.last }
            // Memory every `every` seconds of audio (reading /proc costs more than a buffer).
            let due = last.map { audio >= ($0.audio / every).rounded(.down) * every + every } ?? true
            var reading = LongStreamSamples.Reading(audio: audio, compute: compute)
            if due || audio >= stream.audioSeconds {
                reading.toolResident = ProcessMemory.residentBytes()
                reading.workerResident = await engine.processes?.residentBytes()
            }
            readings.withLock { $0.append(reading) }
        }
        let run = UtteranceRun(engine: engine, pacing: pacing, policy: policy)
        let utterance = stream.utterance
        var trace: LongStreamTrace?
        do {
            let outcome = try await run.withTimeout(seconds: 600 + 10 * stream.audioSeconds) {
                try await run.stream(utterance, audioPath: stream.path, probe: probe)
            }
            let measured = LongStreamTrace(
                events: outcome.timeline.events, pieces: stream.pieces,
                samples: LongStreamSamples(readings: readings.withLock { $0 }), audioSeconds: outcome.audioSeconds,
                inputEndedAt: outcome.timeline.inputEndedAt)
            trace = measured
            let figures = measured.figures
            record.minutes = figures.minutes
            record.words = figures.minutes.reduce(ErrorCounts()) { $0 + $1.words }
            record.hypothesisLatency = LatencyPercentiles.make(figures.hypothesisByPiece)
            record.confirmedLatency = LatencyPercentiles.make(figures.confirmedByPiece)
            record.computeSeconds = outcome.computeSeconds
            record.wallSeconds = outcome.wallSeconds
            record.computeClock = outcome.computeClock
            record.drain = StreamingMeasures.drain(outcome.timeline)
        } catch {
            record.error = (error as? EngineError)?.describing(audio: stream.path) ?? "\(error)"
        }
        return Outcome(record: record, trace: trace)
    }
}
