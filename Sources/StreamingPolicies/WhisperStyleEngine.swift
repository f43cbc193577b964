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

/// One re-decoding stream. Calls come one at a time (the protocol's rule); state is guarded anyway.
final class WhisperStyleSession: RecognitionSession, @unchecked Sendable {
    private let base: any RecognitionEngine
    private let configuration: EngineSessionConfiguration
    private let policy: LocalAgreementPolicy
    private struct State {
        var agreement: LocalAgreement
        var samples: [Float] = []
        var rate = 16_000.0
        var bufferStart: MediaTime = .zero
        var expected: MediaTime?
        /// Samples since the last decode (counted, not summed as seconds, so decodes fall on time).
        var sinceDecode = 0
        var finalizedThrough: MediaTime = .zero
        var closed = false
    }
    private let state: Locked<State>

    init(base: any RecognitionEngine, configuration: EngineSessionConfiguration, policy: LocalAgreementPolicy) {
        self.base = base
        self.configuration = configuration
        self.policy = policy
        state = Locked(State(agreement: LocalAgreement(agreement: policy.agreement, repeatRule: policy.repeatRule)))
    }

    /// A fresh agreement for the stream from `time` on.
    private func restart(at time: MediaTime) -> LocalAgreement {
        LocalAgreement(agreement: policy.agreement, startTime: time.seconds, repeatRule: policy.repeatRule)
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        var update = HypothesisUpdate(computeSeconds: 0)  // keeping audio is no engine work
        let gap = state.withLock { s in s.expected.map { $0 != start } ?? false }
        if gap { update = try await flush(through: nil) }
        let due = try state.withLock { s -> Bool in
            guard !s.closed else { throw CancellationError() }
            if s.samples.isEmpty {
                s.bufferStart = start
                s.rate = audio.format.sampleRate
            }
            s.samples += audio.floatChannels.first ?? []
            s.expected = start + audio.duration
            s.sinceDecode += audio.frameCount
            // Never let the window outgrow its limit, committed or not.
            let excess = s.samples.count - Int(policy.windowSeconds * s.rate)
            if excess > 0 {
                s.samples.removeFirst(excess)
                s.bufferStart = s.bufferStart + MediaTime(sampleIndex: Int64(excess), sampleRate: s.rate)
            }
            return s.sinceDecode >= Int((policy.minimumChunkSeconds * s.rate).rounded())
        }
        guard due else { return update }
        let next = try await decode(final: false)
        return merge(update, next)
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await flush(through: time)
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        state.withLock { s in
            s.samples = []
            s.sinceDecode = 0
            if let end = s.expected { s.finalizedThrough = MediaTime.maximum(s.finalizedThrough, end) }
            s.agreement = restart(at: s.finalizedThrough)
            return HypothesisUpdate(finalizedThrough: s.finalizedThrough, computeSeconds: 0)
        }
    }

    func close() async {
        state.withLock { $0.closed = true }
    }

    /// Decodes what is buffered and commits everything; the buffer starts afresh.
    private func flush(through time: MediaTime?) async throws -> HypothesisUpdate {
        var update = try await decode(final: true)
        state.withLock { s in
            s.samples = []
            s.sinceDecode = 0
            if let end = s.expected {
                s.finalizedThrough = MediaTime.maximum(s.finalizedThrough, end)
                update.finalizedThrough = s.finalizedThrough
            }
            s.agreement = restart(at: s.finalizedThrough)
        }
        return update
    }

    /// One decode of the buffer by a fresh base session, then LocalAgreement and trimming.
    private func decode(final: Bool) async throws -> HypothesisUpdate {
        let (samples, rate, start, prompt) = state.withLock { s in
            (s.samples, s.rate, s.bufferStart, s.agreement.prompt(bufferStart: s.bufferStart.seconds))
        }
        var prompted = configuration
        if !prompt.isEmpty { prompted.contextualStrings.append(prompt) }
        let decoded = try await WindowDecode.run(
            base: base, configuration: prompted, samples: samples, rate: rate, start: start)
        let (words, segmentEnds, compute) = (decoded.words, decoded.segmentEnds, decoded.computeSeconds)
        return state.withLock { s in
            s.sinceDecode = 0
            let hypothesis = words.map {
                LocalAgreement.Word($0.text, start: $0.range.start.seconds, end: $0.range.end.seconds)
            }
            var newly = s.agreement.ingest(hypothesis)
            if final { newly += s.agreement.flush() }
            var update = HypothesisUpdate(computeSeconds: compute)
            let byTime = Dictionary(
                words.map { ("\($0.text)@\($0.range.start.seconds)", $0) }, uniquingKeysWith: { a, _ in a })
            func recognized(_ w: LocalAgreement.Word) -> RecognizedWord {
                byTime["\(w.text)@\(w.start)"]
                    ?? RecognizedWord(
                        text: w.text,
                        range: TimeRange(
                            start: MediaTime(seconds: w.start, preferredTimescale: 1_000_000),
                            end: MediaTime(seconds: w.end, preferredTimescale: 1_000_000)))
            }
            if !newly.isEmpty {
                let end = MediaTime.maximum(
                    s.finalizedThrough, MediaTime(seconds: newly.last!.end, preferredTimescale: 1_000_000))
                update.finalized = [
                    HypothesisSegment(
                        range: TimeRange(start: s.finalizedThrough, end: end), words: newly.map(recognized))
                ]
                s.finalizedThrough = end
                update.finalizedThrough = end
            }
            if !final && Double(s.samples.count) / s.rate > policy.trimSeconds,
                let cut = Self.trimPoint(
                    segmentEnds: segmentEnds,
                    lastCommitted: s.agreement.committed.isEmpty ? nil : s.agreement.lastCommittedTime),
                let drop = (MediaTime(seconds: cut, preferredTimescale: 1_000_000) - s.bufferStart).sampleIndex(
                    sampleRate: s.rate),
                drop > 0, Int(drop) < s.samples.count
            {
                s.samples.removeFirst(Int(drop))
                s.bufferStart = s.bufferStart + MediaTime(sampleIndex: drop, sampleRate: s.rate)
                s.agreement.trimmed(through: s.bufferStart.seconds)
            }
            let pending = s.agreement.unconfirmed
            if !final && !pending.isEmpty, let end = s.expected {
                update.volatile = HypothesisSegment(
                    range: TimeRange(start: s.finalizedThrough, end: end), words: pending.map(recognized))
            }
            return update
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

    private func merge(_ a: HypothesisUpdate, _ b: HypothesisUpdate) -> HypothesisUpdate {
        WindowDecode.merge(a, b)
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
