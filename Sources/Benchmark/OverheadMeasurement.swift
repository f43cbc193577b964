import Corpus
import Metrics
import Records
import SpeechCore

/// Measures the harness's overhead over an engine: every utterance decoded by the engine alone
/// (an `AloneDecoderProcess`) and through the analyzer (`UtteranceRun`), back to back, the side
/// that goes first alternating, for a number of rounds. The figures are an `OverheadComparison`.
public struct OverheadMeasurement: Sendable {
    /// One utterance to decode, with its audio resolved.
    public struct Item: Sendable {
        public var utterance: Utterance
        public var audio: String
        public var manifest: String

        public init(utterance: Utterance, audio: String, manifest: String) {
            self.utterance = utterance
            self.audio = audio
            self.manifest = manifest
        }
    }

    /// Why a measurement stopped before all rounds were done.
    public enum Stop: Error, CustomStringConvertible, Sendable {
        /// The engine alone failed on an utterance.
        case aloneFailed(utterance: String, reason: String)
        /// The harness side gave no time for an utterance.
        case harnessFailed(utterance: String, reason: String)

        public var description: String {
            switch self {
            case .aloneFailed(let utterance, let reason): "\(utterance): the engine alone failed: \(reason)"
            case .harnessFailed(let utterance, let reason): "\(utterance): the harness failed: \(reason)"
            }
        }
    }

    public var rounds: Int
    public var chunkMilliseconds: Int
    public var policy: ScoringPolicy

    public init(rounds: Int, chunkMilliseconds: Int, policy: ScoringPolicy = ScoringPolicy(normalizer: .english)) {
        self.rounds = rounds
        self.chunkMilliseconds = chunkMilliseconds
        self.policy = policy
    }

    /// Runs the rounds; what was measured before a stop is kept.
    public func run(
        _ work: [Item], engine: any RecognitionEngine, alone: AloneDecoderProcess
    ) async -> (comparison: OverheadComparison, stop: Stop?) {
        let run = UtteranceRun(engine: engine, chunkMilliseconds: chunkMilliseconds, policy: policy)
        var comparison = OverheadComparison()
        for round in 0..<rounds {
            for (index, item) in work.enumerated() {
                var aloneSide: (seconds: Double, transcript: String)?
                var record: UtteranceRecord?
                for side in OverheadComparison.aloneFirst(round: round, index: index) ? [0, 1] : [1, 0] {
                    if side == 0 {
                        do {
                            aloneSide = try await alone.decode(item.audio)
                        } catch {
                            return (comparison, .aloneFailed(utterance: item.utterance.id, reason: "\(error)"))
                        }
                    } else {
                        record = await run.run(item.utterance, audioPath: item.audio, manifest: item.manifest)
                    }
                }
                guard let aloneSide, let record, let harness = record.wallSeconds, record.error == nil else {
                    return (
                        comparison, .harnessFailed(utterance: item.utterance.id, reason: record?.error ?? "no time")
                    )
                }
                comparison.add(
                    OverheadComparison.Pair(
                        utterance: item.utterance.id, round: round, aloneSeconds: aloneSide.seconds,
                        harnessSeconds: harness, harnessEngineSeconds: record.computeSeconds,
                        sameTranscript: policy.prepare(aloneSide.transcript) == policy.prepare(record.hypothesis)))
            }
        }
        return (comparison, nil)
    }
}
