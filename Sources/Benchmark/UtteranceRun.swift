import AVFAudio
import AudioIO
import CoreMedia
import Corpus
import Foundation
import Metrics
import Records
import SpeechCore
@_spi(Harness) import SpeechReference

/// How audio arrives during a benchmark.
public enum Pacing: String, Sendable, Codable, CaseIterable {
    /// Each chunk arrives at its audio time on a virtual clock; the engine's measured compute time
    /// moves the clock. Fast, and what real time would give on this machine.
    case simulated
    /// Chunks are released in real time (sleeping), to validate the simulation.
    case realtime
}

extension UtteranceRecord {
    /// An utterance before any engine has heard it: nothing recognised, nothing measured.
    public init(engine: String, utterance: Utterance, manifest: String, audio: String, policy: ScoringPolicy) {
        let folder = (manifest as NSString).deletingLastPathComponent.split(separator: "/").last.map(String.init)
        self.init(
            engine: engine, manifest: manifest, id: utterance.id, speaker: utterance.speaker, task: utterance.task,
            tier: utterance.tier ?? folder ?? "", audioSeconds: utterance.duration, reference: utterance.reference,
            hypothesis: "",
            policy: policy.name, words: ErrorCounts(), characters: ErrorCounts(), computeSeconds: 0, loadSeconds: nil,
            timeline: StreamingTimeline(events: [], referenceWords: [], audioEnd: 0),
            measures: StreamingMeasures(emissionDelays: [], hadRevisions: false), alignment: "", error: nil,
            audio: audio)
    }
}

/// Streams one corpus utterance through SpeechAnalyzer + SpeechTranscriber on an engine, paced
/// as asked, and scores it.
public struct UtteranceRun: Sendable {
    public var engine: any RecognitionEngine
    public var pacing: Pacing
    public var chunkMilliseconds: Int
    public var policy: ScoringPolicy
    /// Whether the transcriber asks for word times (`audioTimeRange`). Off by default: the scores
    /// and latencies do not use them, and some engines (Whisper) pay for them.
    public var wordTimes: Bool

    public init(
        engine: any RecognitionEngine, pacing: Pacing = .simulated, chunkMilliseconds: Int = 100, policy: ScoringPolicy,
        wordTimes: Bool = false
    ) {
        self.engine = engine
        self.pacing = pacing
        self.chunkMilliseconds = chunkMilliseconds
        self.policy = policy
        self.wordTimes = wordTimes
    }

    public func run(_ utterance: Utterance, audioPath: String, manifest: String) async -> UtteranceRecord {
        var record = UtteranceRecord(
            engine: engine.name, utterance: utterance, manifest: manifest, audio: audioPath, policy: policy)
        if engine.enrolledSpeakers(locale: utterance.locale)?.contains(utterance.speaker) == true {
            record.enrolledSpeaker = true
        }
        do {
            let outcome = try await withTimeout(seconds: 60 + 10 * max(1, utterance.duration)) {
                try await stream(utterance, audioPath: audioPath)
            }
            record.audioSeconds = outcome.audioSeconds
            record.computeSeconds = outcome.computeSeconds
            record.wallSeconds = outcome.wallSeconds
            record.computeClock = outcome.computeClock
            record.loadSeconds = outcome.loadSeconds
            record.hypothesis = outcome.hypothesis
            record.hypothesisWords = wordTimes ? outcome.words : nil
            record.timeline = outcome.timeline
            record.measures = StreamingMeasures.measure(outcome.timeline)
        } catch {
            record.error = (error as? EngineError)?.describing(audio: audioPath) ?? "\(error)"
        }
        record.score(policy)
        return record
    }

    /// Runs `body` on an engine thread of its own, failing with a timeout error if it takes longer
    /// than `seconds` of wall time: a stuck engine or analyzer costs one utterance, never the run.
    /// The body is cancelled; if it cannot stop (a blocked C call) it is abandoned with its thread
    /// rather than waited for.
    ///
    /// On the engine thread the engine's calls run in place, without the hand-off to its queue
    /// and the wake-up after it that a call from the cooperative pool costs (see ``EngineThread``).
    func withTimeout<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let once = ResumeOnce(continuation)
            let thread = EngineThread.take()
            let work = Task(executorPreference: thread) {
                await EngineThread.$current.withValue(thread) { () async -> Void in
                    do { once.resume(.success(try await body())) } catch { once.resume(.failure(error)) }
                }
                thread.giveBack()
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                if once.resume(.failure(BenchTimeout(seconds: seconds))) { work.cancel() }
            }
        }
    }

    struct Outcome: Sendable {
        var hypothesis: String
        /// The final words whose runs carry a time range.
        var words: [TimedWord]
        var timeline: StreamingTimeline
        var computeSeconds: Double
        var wallSeconds: Double
        var computeClock: String
        var loadSeconds: Double
        var audioSeconds: Double
    }

    /// Told after each buffer (and once after the input ends) how much audio has streamed and how
    /// much engine CPU time it has cost so far.
    typealias Probe = @Sendable (_ audioSeconds: Double, _ computeSeconds: Double) async -> Void

    func stream(_ utterance: Utterance, audioPath: String, probe: Probe? = nil) async throws -> Outcome {
        guard let format = engine.capabilities.formats.first else {
            throw EngineError.unsupportedFormat(engine: engine.id, format: "none declared")
        }
        // The harness converts the file to the engine's rate; the analyzer itself never resamples.
        let chunker = try AudioChunker(
            path: audioPath, chunkMilliseconds: chunkMilliseconds, sampleRate: format.sampleRate, quality: .medium)
        if let offset = utterance.offset, offset > 0 {
            throw EngineError.unsupportedFormat(
                engine: engine.id, format: "segments with an offset (\(offset) s) are not streamed yet")
        }
        let meter = ComputeMeter()
        let transcriber = SpeechTranscriber(
            locale: Locale(identifier: utterance.locale), transcriptionOptions: [],
            reportingOptions: engine.capabilities.partialResults ? [.volatileResults, .fastResults] : [],
            attributeOptions: wordTimes ? [.audioTimeRange] : [], engine: MeteredEngine(base: engine, meter: meter))
        let analyzer = SpeechAnalyzer(
            modules: [transcriber],
            options: .init(priority: .medium, modelRetention: .whileInUse, ignoresResourceLimits: true))
        let avFormat = AVAudioFormat(standardFormatWithSampleRate: format.sampleRate, channels: 1)!
        let clock = ContinuousClock()
        // Loading (engine session, model) is measured apart, as load time, not compute.
        let loadStart = clock.now
        try await analyzer.prepareToAnalyze(in: avFormat)
        let load = loadStart.duration(to: clock.now).seconds
        var seen = 0
        var events: [StreamingTimeline.Event] = []
        let pacer = ChunkPacer(
            chunker: chunker, pacing: pacing, format: avFormat, meter: meter, wallStart: clock.now,
            collect: { time in
                let published = transcriber.publishedResults
                for result in published[seen...] {
                    let words = WordAligner.tokens(policy.prepare(String(result.text.characters)))
                    events.append(
                        StreamingTimeline.Event(
                            time: time, isFinal: result.isFinal, words: words,
                            rangeStart: result.range.start.seconds, rangeEnd: result.range.end.seconds))
                }
                seen = published.count
            }, probe: probe)
        // The whole utterance is one input sequence, as an app's capture is.
        _ = try await analyzer.analyzeSequence(PacedChunks(pacer: pacer))
        if let failure = pacer.failure { throw failure }
        // The program ends the input here: the drain is counted from this moment.
        let inputEndedAt = pacer.inputEndedAt
        try await pacer.finalize { try await analyzer.finalizeAndFinish(through: pacer.endTime) }
        let words = transcriber.publishedResults.filter(\.isFinal).flatMap { $0.text.timedWords() }
        let hypothesis = transcriber.publishedResults.filter(\.isFinal).map { String($0.text.characters) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        let reference = (utterance.words ?? []).map {
            StreamingTimeline.TimedWord(word: policy.prepare($0.word), start: $0.start, end: $0.end)
        }
        return Outcome(
            hypothesis: hypothesis, words: words,
            timeline: StreamingTimeline(
                events: events, referenceWords: reference, audioEnd: pacer.audioEnd, inputEndedAt: inputEndedAt),
            computeSeconds: pacer.compute, wallSeconds: pacer.wall,
            computeClock: meter.reading.unmeasuredCalls == 0 ? "cpu" : "wall",
            loadSeconds: load, audioSeconds: pacer.audioEnd)
    }
}

/// Resumes a continuation once, whoever comes first.
final class ResumeOnce<T: Sendable>: Sendable {
    private let pending: Locked<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { pending = Locked(continuation) }

    @discardableResult
    func resume(_ result: Result<T, any Error>) -> Bool {
        guard
            let continuation = pending.withLock({ pending in
                defer { pending = nil }
                return pending
            })
        else { return false }
        continuation.resume(with: result)
        return true
    }
}

/// An utterance that took longer than its time limit.
public struct BenchTimeout: Error, CustomStringConvertible, Sendable {
    public var seconds: Double
    public var description: String { "timed out after \(Int(seconds)) s" }
}
