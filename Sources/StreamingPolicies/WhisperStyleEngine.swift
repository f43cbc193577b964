import Foundation
import SpeechCore

/// whisper_streaming's policy over any engine: the growing buffer is decoded again every
/// `minimumChunkSeconds` of new audio by a fresh session of the base engine, prompted with up to
/// 200 characters of committed text that has left the buffer; words are committed by
/// LocalAgreement; once the buffer is longer than `trimSeconds` it is cut at the end of the last
/// decoded segment but one that ends within the committed text (the window never exceeds
/// `windowSeconds`). Committed words are final results; the unconfirmed tail is the volatile result.
public struct LocalAgreementPolicy: StreamingPolicy {
    public var minimumChunkSeconds = 1.0
    public var trimSeconds = 15.0
    public var windowSeconds = 30.0
    public var agreement = 2
    public var repeatRule = LocalAgreement.RepeatRule.withinASecond
    public init() {}

    public static let idSuffix = "+local-agreement"

    /// `la2,chunk1s,trim15s` (and `repeats-aligned` with the harness's repair).
    public var nameSettings: [String] {
        ["la\(agreement)", "chunk\(EngineName.number(minimumChunkSeconds))s", "trim\(EngineName.number(trimSeconds))s"]
            + (repeatRule == .aligned ? ["repeats-aligned"] : [])
    }

    public func makeSession(
        base: any RecognitionEngine, configuration: EngineSessionConfiguration
    ) -> any RecognitionSession {
        var inner = configuration
        inner.wordTimes = true  // LocalAgreement matches words by their times
        return WhisperStyleSession(base: base, configuration: inner, policy: self)
    }
}

/// whisper_streaming's engine: LocalAgreement over any engine, e.g.
/// `whisper-streaming[la2,chunk1s,trim15s,tiny.en,int8,beam1,t1]`.
public typealias WhisperStyleEngine = StreamingPolicyEngine<LocalAgreementPolicy>

/// whisper_streaming's `OnlineASRProcessor` as state: the audio buffer and where it starts,
/// LocalAgreement over its decodes, and what is final. Decoding is the caller's (``request`` out,
/// ``apply(_:final:)`` in), so that both Whisper-style sessions share the commit and trim rules.
struct OnlineBuffer: Sendable {
    let policy: LocalAgreementPolicy
    var agreement: LocalAgreement
    var samples: [Float] = []
    var rate = 16_000.0
    var bufferStart: MediaTime = .zero
    /// The end of the audio received: the volatile result reaches it.
    var expected: MediaTime?
    var finalizedThrough: MediaTime = .zero

    init(policy: LocalAgreementPolicy) {
        self.policy = policy
        agreement = LocalAgreement(agreement: policy.agreement, repeatRule: policy.repeatRule)
    }

    /// A fresh buffer and agreement for the stream from `time` on (committed text forgotten);
    /// nothing before what is already final becomes final again.
    mutating func restart(at time: MediaTime) {
        samples = []
        bufferStart = time
        agreement = LocalAgreement(
            agreement: policy.agreement, startTime: MediaTime.maximum(time, finalizedThrough).seconds,
            repeatRule: policy.repeatRule)
    }

    /// The stream ended (finalized or cancelled): everything received is final, the buffer and
    /// agreement start afresh from there. Returns whether any audio had been received.
    @discardableResult
    mutating func endStream() -> Bool {
        if let end = expected { finalizedThrough = MediaTime.maximum(finalizedThrough, end) }
        restart(at: finalizedThrough)
        return expected != nil
    }

    /// Audio after what the buffer has, its first sample at `start` when the buffer is empty;
    /// the buffer never outgrows its window, committed or not.
    mutating func append(_ audio: [Float], rate: Double, start: MediaTime?, end: MediaTime) {
        if samples.isEmpty {
            if let start { bufferStart = start }
            self.rate = rate
        }
        samples += audio
        expected = end
        let excess = samples.count - Int(policy.windowSeconds * rate)
        if excess > 0 {
            samples.removeFirst(excess)
            bufferStart = bufferStart + MediaTime(sampleIndex: Int64(excess), sampleRate: rate)
        }
    }

    /// What to decode: the buffer, its rate and start, and the prompt of committed text that left it.
    var request: (samples: [Float], rate: Double, start: MediaTime, prompt: String) {
        (samples, rate, bufferStart, agreement.prompt(bufferStart: bufferStart.seconds))
    }

    /// One decode of ``request``: LocalAgreement commits, the buffer is trimmed, the unconfirmed
    /// tail is the volatile result. `final` commits the tail too.
    mutating func apply(_ decoded: WindowDecode, final: Bool) -> HypothesisUpdate {
        let words = decoded.words
        let hypothesis = words.map {
            LocalAgreement.Word($0.text, start: $0.range.start.seconds, end: $0.range.end.seconds)
        }
        var newly = agreement.ingest(hypothesis)
        if final { newly += agreement.flush() }
        var update = commit(newly, heard: words)
        update.computeSeconds = decoded.computeSeconds
        if !final && Double(samples.count) / rate > policy.trimSeconds,
            let cut = WhisperStyleSession.trimPoint(
                segmentEnds: decoded.segmentEnds,
                lastCommitted: agreement.committed.isEmpty ? nil : agreement.lastCommittedTime),
            let drop = (MediaTime(seconds: cut, preferredTimescale: 1_000_000) - bufferStart).sampleIndex(
                sampleRate: rate),
            drop > 0, Int(drop) < samples.count
        {
            samples.removeFirst(Int(drop))
            bufferStart = bufferStart + MediaTime(sampleIndex: drop, sampleRate: rate)
            agreement.trimmed(through: bufferStart.seconds)
        }
        let pending = agreement.unconfirmed
        if !final && !pending.isEmpty, let end = expected {
            update.volatile = HypothesisSegment(
                range: TimeRange(start: finalizedThrough, end: end), words: pending.map { recognized($0, in: words) })
        }
        return update
    }

    /// whisper_streaming's `finish`: the last decode's unconfirmed words are committed as they
    /// are, without decoding what came since.
    mutating func finish() -> HypothesisUpdate {
        var update = commit(agreement.flush(), heard: [])
        update.computeSeconds = 0
        return update
    }

    /// Newly committed words as a final segment from what was final before.
    private mutating func commit(_ newly: [LocalAgreement.Word], heard words: [RecognizedWord]) -> HypothesisUpdate {
        var update = HypothesisUpdate()
        guard let last = newly.last else { return update }
        let end = MediaTime.maximum(finalizedThrough, MediaTime(seconds: last.end, preferredTimescale: 1_000_000))
        update.finalized = [
            HypothesisSegment(
                range: TimeRange(start: finalizedThrough, end: end), words: newly.map { recognized($0, in: words) })
        ]
        finalizedThrough = end
        update.finalizedThrough = end
        return update
    }

    /// The decoder's word for an agreed word (its confidence kept), else one made from its text and times.
    private func recognized(_ word: LocalAgreement.Word, in words: [RecognizedWord]) -> RecognizedWord {
        words.first { $0.text == word.text && $0.range.start.seconds == word.start }
            ?? RecognizedWord(
                text: word.text,
                range: TimeRange(
                    start: MediaTime(seconds: word.start, preferredTimescale: 1_000_000),
                    end: MediaTime(seconds: word.end, preferredTimescale: 1_000_000)))
    }

    /// Decodes ``request`` with a fresh session of `base`.
    func decode(base: any RecognitionEngine, configuration: EngineSessionConfiguration) async throws -> WindowDecode {
        let (samples, rate, start, prompt) = request
        var prompted = configuration
        if !prompt.isEmpty { prompted.contextualStrings.append(prompt) }
        return try await WindowDecode.run(
            base: base, configuration: prompted, samples: samples, rate: rate, start: start)
    }
}

/// One re-decoding stream. Calls come one at a time (the protocol's rule); state is guarded anyway.
final class WhisperStyleSession: RecognitionSession, @unchecked Sendable {
    private let base: any RecognitionEngine
    private let configuration: EngineSessionConfiguration
    private let policy: LocalAgreementPolicy
    private struct State {
        var online: OnlineBuffer
        /// Samples since the last decode (counted, not summed as seconds, so decodes fall on time).
        var sinceDecode = 0
        var closed = false
    }
    private let state: Locked<State>

    init(base: any RecognitionEngine, configuration: EngineSessionConfiguration, policy: LocalAgreementPolicy) {
        self.base = base
        self.configuration = configuration
        self.policy = policy
        state = Locked(State(online: OnlineBuffer(policy: policy)))
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        var update = HypothesisUpdate(computeSeconds: 0)  // keeping audio is no engine work
        let gap = state.withLock { s in s.online.expected.map { $0 != start } ?? false }
        if gap { update = try await flush() }
        let due = try state.withLock { s -> Bool in
            guard !s.closed else { throw CancellationError() }
            s.online.append(
                audio.floatChannels.first ?? [], rate: audio.format.sampleRate, start: start,
                end: start + audio.duration)
            s.sinceDecode += audio.frameCount
            return s.sinceDecode >= Int((policy.minimumChunkSeconds * s.online.rate).rounded())
        }
        guard due else { return update }
        let next = try await decode(final: false)
        return WindowDecode.merge(update, next)
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await flush()
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        state.withLock { s in
            s.sinceDecode = 0
            s.online.endStream()
            return HypothesisUpdate(finalizedThrough: s.online.finalizedThrough, computeSeconds: 0)
        }
    }

    func close() async {
        state.withLock { $0.closed = true }
    }

    /// Decodes what is buffered and commits everything; the buffer starts afresh.
    private func flush() async throws -> HypothesisUpdate {
        var update = try await decode(final: true)
        state.withLock { s in
            s.sinceDecode = 0
            if s.online.endStream() { update.finalizedThrough = s.online.finalizedThrough }
        }
        return update
    }

    /// One decode of the buffer by a fresh base session, then LocalAgreement and trimming.
    private func decode(final: Bool) async throws -> HypothesisUpdate {
        let online = state.withLock { $0.online }
        let decoded = try await online.decode(base: base, configuration: configuration)
        return state.withLock { s in
            s.sinceDecode = 0
            return s.online.apply(decoded, final: final)
        }
    }

    /// whisper_streaming's segment trimming: the end of the last segment but one, or of an
    /// earlier one (never the first alone), that ends by the last committed word's end; nil when
    /// nothing is committed or no such segment exists.
    static func trimPoint(segmentEnds: [Double], lastCommitted: Double?) -> Double? {
        guard let lastCommitted, segmentEnds.count > 1 else { return nil }
        var ends = segmentEnds
        var cut = ends[ends.count - 2]
        while ends.count > 2 && cut > lastCommitted {
            ends.removeLast()
            cut = ends[ends.count - 2]
        }
        return cut <= lastCommitted ? cut : nil
    }
}

struct UnsupportedLocale: Error, CustomStringConvertible {
    var engine: String
    var locale: String
    var description: String { "engine \(engine) does not support locale \(locale)" }
}

/// One decode of a stretch of audio by a fresh session of the base engine: what the re-decoding
/// policies do at every step.
struct WindowDecode {
    /// The decode's segments that hold words, in stream time.
    var segments: [HypothesisSegment] = []
    /// The base engine's CPU time; nil when it reports none (the caller's meter then counts wall time).
    var computeSeconds: Double? = 0

    var words: [RecognizedWord] { segments.flatMap(\.words) }

    /// `b` after `a` within one call: both finals, `b`'s volatile result, CPU time summed (nil
    /// when either has none).
    static func merge(_ a: HypothesisUpdate, _ b: HypothesisUpdate) -> HypothesisUpdate {
        HypothesisUpdate(
            finalized: a.finalized + b.finalized, volatile: b.volatile,
            finalizedThrough: b.finalizedThrough ?? a.finalizedThrough,
            computeSeconds: a.computeSeconds.flatMap { x in b.computeSeconds.map { x + $0 } })
    }
    var segmentEnds: [Double] { segments.map(\.range.end.seconds) }

    static func run(
        base: any RecognitionEngine, configuration: EngineSessionConfiguration, samples: [Float], rate: Double,
        start: MediaTime
    ) async throws -> WindowDecode {
        guard !samples.isEmpty else { return WindowDecode() }
        let session = try await base.makeSession(configuration)
        let buffer = PCMBuffer(mono: samples, sampleRate: rate)
        var updates = [try await session.accept(buffer, at: start)]
        updates.append(try await session.finalize(through: start + buffer.duration))
        await session.close()
        let compute =
            updates.allSatisfy { $0.computeSeconds != nil } ? updates.compactMap(\.computeSeconds).reduce(0, +) : nil
        return WindowDecode(
            segments: updates.flatMap { $0.finalized + ($0.volatile.map { [$0] } ?? []) }.filter { !$0.words.isEmpty },
            computeSeconds: compute)
    }
}
