import Foundation
import Metrics
import SpeechCore

/// Everything measured for one utterance on one engine: kept in the append-only store as it
/// finishes, so an interrupted run loses nothing it finished.
public struct UtteranceRecord: Codable, Sendable, Hashable {
    public var engine: String
    public var manifest: String
    public var id: String
    public var speaker: String
    public var task: String
    public var tier: String
    public var audioSeconds: Double
    public var reference: String
    public var hypothesis: String
    /// Scoring policy name, e.g. `english+oh=zero`.
    public var policy: String
    public var words: ErrorCounts
    public var characters: ErrorCounts
    /// Compute for the utterance, model loading excluded: the engine's CPU time in its calls (its
    /// thread's CPU clock in process, a worker's own CPU time). Waiting for a core, a lock or a busy
    /// worker is not in it, so it does not depend on what else runs; RTFx and the simulated
    /// latencies use it. The analyzer's own cost is measured apart (`bench analyzer`,
    /// `scripts/bench-overhead`).
    public var computeSeconds: Double
    /// Wall time spent in the analyzer calls, waiting included (what a caller waited for).
    public var wallSeconds: Double?
    /// True when the engine under this run's adapter shared its answers with other adapters
    /// (`bench --share-decodes`): calls answered from memory carry the CPU time measured when they
    /// were made, so compute is as measured, but the wall time is no speed.
    public var sharedDecodes: Bool?
    /// `cpu` when the engine measured its CPU time on every call; `wall` when it did not (then
    /// its wall time stands in for compute, waiting included).
    public var computeClock: String?
    /// Time to prepare the engine for this utterance (session and model load), apart from compute.
    public var loadSeconds: Double?
    public var timeline: StreamingTimeline
    public var measures: StreamingMeasures
    /// sclite-style alignment of the scored texts.
    public var alignment: String
    /// Set when the engine or harness failed on this utterance; its numbers are then not pooled.
    public var error: String?
    /// The audio file as the run opened it (relative to the working directory unless the
    /// manifest gave an absolute path), so reports can link to it.
    public var audio: String?
    /// The final words with their audio times, when the run asked for word times (`--word-times`).
    public var hypothesisWords: [TimedWord]?
    /// True when the engine learned the utterance's locale from its speaker's own recordings (the
    /// DSP engine's templates): a speaker-dependent figure. Nil otherwise.
    public var enrolledSpeaker: Bool?

    public init(
        engine: String, manifest: String, id: String, speaker: String, task: String, tier: String, audioSeconds: Double,
        reference: String, hypothesis: String, policy: String, words: ErrorCounts, characters: ErrorCounts,
        computeSeconds: Double, wallSeconds: Double? = nil, sharedDecodes: Bool? = nil, computeClock: String? = nil,
        loadSeconds: Double? = nil, timeline: StreamingTimeline, measures: StreamingMeasures, alignment: String,
        error: String? = nil, audio: String? = nil, hypothesisWords: [TimedWord]? = nil
    ) {
        self.engine = engine
        self.manifest = manifest
        self.id = id
        self.speaker = speaker
        self.task = task
        self.tier = tier
        self.audioSeconds = audioSeconds
        self.reference = reference
        self.hypothesis = hypothesis
        self.policy = policy
        self.words = words
        self.characters = characters
        self.computeSeconds = computeSeconds
        self.wallSeconds = wallSeconds
        self.sharedDecodes = sharedDecodes
        self.computeClock = computeClock
        self.loadSeconds = loadSeconds
        self.timeline = timeline
        self.measures = measures
        self.alignment = alignment
        self.error = error
        self.audio = audio
        self.hypothesisWords = hypothesisWords
    }

    public var key: String { UtteranceRecord.key(engine: engine, manifest: manifest, id: id) }
    public static func key(engine: String, manifest: String, id: String) -> String {
        "\(engine)\u{1F}\(manifest)\u{1F}\(id)"
    }
}

extension UtteranceRecord {
    /// Scores the hypothesis against the reference under `policy`: word and character counts and
    /// the word alignment.
    public mutating func score(_ policy: ScoringPolicy) {
        let reference = policy.prepare(self.reference), hypothesis = policy.prepare(self.hypothesis)
        let alignment = WordAligner.alignWords(reference: reference, hypothesis: hypothesis)
        words = alignment.counts
        characters = WordAligner.alignCharacters(reference: reference, hypothesis: hypothesis).counts
        self.alignment = alignment.pralign
    }
}
