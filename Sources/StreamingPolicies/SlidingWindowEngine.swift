import Foundation
import SpeechCore

/// whisper.cpp's `stream` example over any engine, in either of its modes.
///
/// Sliding window (`step` > 0): every `step` seconds of new audio, a window of that audio plus what
/// the previous window kept (up to `length` + `keep` seconds) is decoded afresh and shown as the
/// current line; every `stepsPerLine` decodes the line is committed and the next window starts from
/// the last `keep` seconds only, to soften words cut at the boundary. Lines are final results; the
/// current line is the volatile result.
///
/// VAD (`step` 0, as `--step 0` selects it): nothing is shown until an energy endpointer finds the
/// last second quiet against the last two (polled once two seconds have passed since the last
/// transcription); then the last `length` seconds are decoded as one final block. See ``VADWindow``.
public struct SlidingWindowPolicy: StreamingPolicy {
    /// whisper.cpp's defaults: `--step 3000 --length 10000 --keep 200`.
    public var step = 3.0
    public var length = 10.0
    public var keep = 0.2
    /// VAD mode's `-vth` and `-fth` (whisper.cpp's defaults).
    public var vadThreshold = 0.6
    public var frequencyThreshold = 100.0
    /// What a VAD block shows of audio an earlier block already transcribed.
    public var blockOverlap = BlockOverlap.shown

    /// Each VAD block transcribes the last `length` seconds, so two endpoints within that time
    /// give blocks whose audio overlaps.
    public enum BlockOverlap: String, Sendable, Hashable {
        /// whisper.cpp's: every block prints all its words, the earlier block's again.
        case shown
        /// The harness's reading of the blocks as one transcript: a block shows what follows the
        /// previous block's words (the same comparison as the end-of-stream decode).
        case continued
    }

    public init(
        step: Double = 3.0, length: Double = 10.0, keep: Double = 0.2, vadThreshold: Double = 0.6,
        frequencyThreshold: Double = 100, blockOverlap: BlockOverlap = .shown
    ) {
        self.step = max(0, step)
        self.length = max(length, step)
        self.keep = min(keep, max(0, step))
        self.vadThreshold = vadThreshold
        self.frequencyThreshold = frequencyThreshold
        self.blockOverlap = blockOverlap
    }

    /// The VAD mode, chosen by a step of zero as in whisper.cpp.
    public var usesVAD: Bool { step <= 0 }

    /// Decodes per committed line: length / step − 1 in whole milliseconds, at least 1.
    public var stepsPerLine: Int { max(1, Int((length * 1000).rounded()) / Int((step * 1000).rounded()) - 1) }

    public init() { self.init(step: 3.0) }

    public static let idSuffix = "+sliding-window"

    /// `step3s,len10s,keep0.2s`, or in VAD mode `vad,len10s,vth0.6,fth100`.
    public var nameSettings: [String] {
        usesVAD
            ? [
                "vad", "len\(EngineName.number(length))s", "vth\(EngineName.number(vadThreshold))",
                "fth\(EngineName.number(frequencyThreshold))",
            ] + (blockOverlap == .continued ? ["blocks-continued"] : [])
            : [
                "step\(EngineName.number(step))s", "len\(EngineName.number(length))s",
                "keep\(EngineName.number(keep))s",
            ]
    }

    public func makeSession(
        base: any RecognitionEngine, configuration: EngineSessionConfiguration
    ) -> any RecognitionSession {
        SlidingWindowSession(base: base, configuration: configuration, parameters: self)
    }
}

/// whisper.cpp's `stream` engine, e.g. `whisper-cpp-stream[step3s,len10s,keep0.2s,tiny.en,int8,beam1,t1]`.
public typealias SlidingWindowEngine = StreamingPolicyEngine<SlidingWindowPolicy>

/// A stretch of audio to decode, and what becomes of its words.
public struct DecodeWindow: Sendable, Equatable {
    public var samples: [Float]
    /// The time of the first sample.
    public var start: MediaTime
    /// Its text is committed (final), not shown as the current line.
    public var commits: Bool
    /// The end of the window shown before, when this window decodes its audio again only for
    /// the words after it (see ``VADWindow``).
    public var shownUntil: MediaTime?
}

/// What a window schedule does for the session: takes audio, says when a window is due, hands it out.
protocol WindowSchedule: Sendable {
    var rate: Double { get }
    mutating func append(_ audio: [Float], at start: MediaTime)
    var isDue: Bool { get }
    mutating func nextWindow(final: Bool) -> DecodeWindow?
    mutating func reset()
}

/// The window arithmetic of whisper.cpp's `stream`, as a value: audio in, windows to decode out.
public struct SlidingWindow: WindowSchedule {
    public let parameters: SlidingWindowPolicy
    public let rate: Double
    /// The previous window, or after a committed line its last `keep` seconds (`pcmf32_old`).
    public private(set) var old: [Float] = []
    /// Audio not decoded yet, and the time of its first sample.
    public private(set) var new: [Float] = []
    private var newStart: MediaTime?
    public private(set) var decodes = 0

    public init(parameters: SlidingWindowPolicy, rate: Double) {
        self.parameters = parameters
        self.rate = rate
    }

    private func samples(_ seconds: Double) -> Int { Int((seconds * rate).rounded()) }

    public mutating func append(_ audio: [Float], at start: MediaTime) {
        if new.isEmpty { newStart = start }
        new += audio
    }

    /// A step of new audio has arrived.
    public var isDue: Bool { new.count >= samples(parameters.step) }

    /// The next window to decode (nil without new audio): its samples, their start time, and
    /// whether its text is committed (every `stepsPerLine` decodes, and always when `final`).
    public mutating func nextWindow(final: Bool) -> DecodeWindow? {
        guard let newStart, !new.isEmpty else { return nil }
        let take = min(old.count, max(0, samples(parameters.keep) + samples(parameters.length) - new.count))
        let window = Array(old.suffix(take)) + new
        let start = newStart - MediaTime(sampleIndex: Int64(take), sampleRate: rate)
        new = []
        self.newStart = nil
        decodes += 1
        let commits = final || decodes % parameters.stepsPerLine == 0
        old = commits ? Array(window.suffix(samples(parameters.keep))) : window
        return DecodeWindow(samples: window, start: start, commits: commits)
    }

    /// A new stream: nothing kept.
    public mutating func reset() {
        old = []
        new = []
        newStart = nil
        decodes = 0
    }
}

/// whisper.cpp `stream`'s VAD mode as a value: the last `length` seconds of audio are kept; once
/// two seconds have passed since the last transcription, each new piece of audio polls the
/// endpointer on the last two seconds, and when it fires the kept audio is the next window (all of
/// it, so a window may repeat audio an earlier one had, as whisper.cpp's does: it never clears its
/// audio in this mode, and an endpoint within `length` of the last prints those words again). At
/// the end of a stream, whisper.cpp has nothing to say; the harness decodes the kept audio once
/// more, so the tail is heard in context (a short tail decoded alone makes Whisper repeat itself),
/// and shows only what follows the last window's words: the words after them when the decode starts
/// with them, else the words whose middle comes after that window's end. With
/// ``SlidingWindowPolicy/BlockOverlap/continued`` every block is read that way.
public struct VADWindow: WindowSchedule {
    public let parameters: SlidingWindowPolicy
    public let rate: Double
    /// The last `length` seconds of audio, and the time just after them.
    public private(set) var kept: [Float] = []
    private var end: MediaTime?
    /// Audio since the last transcription (or the stream's start), in samples.
    private var sinceTranscription = 0
    /// Where the last window ended: the final window starts there.
    private var lastWindowEnd: MediaTime?
    public private(set) var isDue = false

    public init(parameters: SlidingWindowPolicy, rate: Double) {
        self.parameters = parameters
        self.rate = rate
    }

    private func samples(_ seconds: Double) -> Int { Int((seconds * rate).rounded()) }

    public mutating func append(_ audio: [Float], at start: MediaTime) {
        kept += audio
        if kept.count > samples(parameters.length) { kept.removeFirst(kept.count - samples(parameters.length)) }
        end = start + MediaTime(sampleIndex: Int64(audio.count), sampleRate: rate)
        sinceTranscription += audio.count
        // whisper.cpp polls every 100 ms of wall time once 2 s have passed; here, every piece of audio.
        isDue =
            sinceTranscription >= samples(2)
            && Self.endOfSpeech(
                Array(kept.suffix(samples(2))), rate: rate, lastSeconds: 1,
                threshold: Float(parameters.vadThreshold), cutoff: Float(parameters.frequencyThreshold))
    }

    public mutating func nextWindow(final: Bool) -> DecodeWindow? {
        guard let end, !kept.isEmpty else { return nil }
        var shownUntil: MediaTime?
        if final {
            guard isDue || lastWindowEnd.map({ $0 < end }) ?? true else { return nil }
            if !isDue || parameters.blockOverlap == .continued { shownUntil = lastWindowEnd }
        } else if !isDue {
            return nil
        } else if parameters.blockOverlap == .continued {
            shownUntil = lastWindowEnd
        }
        isDue = false
        sinceTranscription = 0
        lastWindowEnd = end
        return DecodeWindow(
            samples: kept, start: end - MediaTime(sampleIndex: Int64(kept.count), sampleRate: rate), commits: true,
            shownUntil: shownUntil)
    }

    public mutating func reset() {
        kept = []
        end = nil
        sinceTranscription = 0
        lastWindowEnd = nil
        isDue = false
    }

    /// whisper.cpp's `vad_simple`: after its optional "high-pass" at `cutoff` Hz, true when
    /// the mean absolute amplitude of the last `lastSeconds` is at most `threshold` times that of
    /// the whole window. An end-of-speech test: relative only, so steady sound never fires and
    /// digital silence always does.
    public static func endOfSpeech(
        _ window: [Float], rate: Double, lastSeconds: Double, threshold: Float, cutoff: Float
    ) -> Bool {
        let last = Int(rate * lastSeconds)
        guard last < window.count else { return false }
        var data = window
        if cutoff > 0 {
            let rc = 1 / (2 * Float.pi * cutoff), dt = 1 / Float(rate)
            let alpha = dt / (rc + dt)
            var y = data[0]
            // In place, as whisper.cpp writes it: data[i - 1] is already filtered, so this reduces to
            // scaling every sample but the first by alpha. Faithful, flaw included.
            for i in 1..<data.count {
                y = alpha * (y + data[i] - data[i - 1])
                data[i] = y
            }
        }
        var all: Float = 0, tail: Float = 0
        for (i, value) in data.enumerated() {
            all += abs(value)
            if i >= data.count - last { tail += abs(value) }
        }
        return !(tail / Float(last) > threshold * (all / Float(data.count)))
    }
}

/// One whisper.cpp `stream` session. Calls come one at a time (the protocol's rule); state is guarded anyway.
final class SlidingWindowSession: RecognitionSession, @unchecked Sendable {
    private let base: any RecognitionEngine
    private let configuration: EngineSessionConfiguration
    private struct State {
        var window: (any WindowSchedule)?
        let parameters: SlidingWindowPolicy
        /// The current (uncommitted) line's words.
        var line: [RecognizedWord] = []
        /// The last committed window's start and words: a decode of the same audio repeats them.
        var lastBlock: (start: MediaTime, words: [String])?
        var expected: MediaTime?
        var finalizedThrough: MediaTime = .zero
        var closed = false
    }
    private let state: Locked<State>

    init(
        base: any RecognitionEngine, configuration: EngineSessionConfiguration,
        parameters: SlidingWindowPolicy
    ) {
        self.base = base
        self.configuration = configuration
        state = Locked(State(parameters: parameters))
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        var update = HypothesisUpdate(computeSeconds: 0)  // keeping audio is no engine work
        let gap = state.withLock { s in s.expected.map { $0 != start } ?? false }
        if gap { update = try await commitRest() }
        let due = try state.withLock { s -> Bool in
            guard !s.closed else { throw CancellationError() }
            if s.window == nil {
                let rate = audio.format.sampleRate
                s.window =
                    s.parameters.usesVAD
                    ? VADWindow(parameters: s.parameters, rate: rate)
                    : SlidingWindow(parameters: s.parameters, rate: rate)
            }
            s.window!.append(audio.floatChannels.first ?? [], at: start)
            s.expected = start + audio.duration
            return s.window!.isDue
        }
        guard due else { return update }
        let next = try await decode(final: false)
        return WindowDecode.merge(update, next)
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await commitRest()
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        state.withLock { s in
            s.window?.reset()
            s.line = []
            s.lastBlock = nil
            if let end = s.expected { s.finalizedThrough = MediaTime.maximum(s.finalizedThrough, end) }
            return HypothesisUpdate(finalizedThrough: s.finalizedThrough, computeSeconds: 0)
        }
    }

    func close() async {
        state.withLock { $0.closed = true }
    }

    /// The last window with what is left, committed; the stream starts afresh after it.
    private func commitRest() async throws -> HypothesisUpdate {
        var update = try await decode(final: true)
        state.withLock { s in
            s.window?.reset()
            s.lastBlock = nil
            if let end = s.expected {
                s.finalizedThrough = MediaTime.maximum(s.finalizedThrough, end)
                update.finalizedThrough = s.finalizedThrough
            }
        }
        return update
    }

    /// Decodes the next window; its words become the current line, committed when the window says so.
    private func decode(final: Bool) async throws -> HypothesisUpdate {
        let next = state.withLock { s in s.window?.nextWindow(final: final) }
        var decoded = WindowDecode()
        if let next {
            decoded = try await WindowDecode.run(
                base: base, configuration: configuration, samples: next.samples,
                rate: state.withLock { $0.window!.rate }, start: next.start)
        }
        return state.withLock { s in
            var update = HypothesisUpdate(computeSeconds: decoded.computeSeconds)
            if let next {
                s.line = Self.unshown(decoded.words, of: next, after: s.lastBlock)
                if next.commits { s.lastBlock = (next.start, decoded.words.map(\.text)) }
            }
            guard next?.commits ?? final else {
                if let end = s.expected, !s.line.isEmpty {
                    update.volatile = HypothesisSegment(
                        range: TimeRange(start: s.finalizedThrough, end: end), words: s.line)
                }
                return update
            }
            // A committed line; words heard again in the kept audio are shown again, as whisper.cpp
            // prints them, but never before what is already final.
            let words = s.line.map { word -> RecognizedWord in
                var word = word
                let start = MediaTime.maximum(word.range.start, s.finalizedThrough)
                word.range = TimeRange(start: start, end: MediaTime.maximum(start, word.range.end))
                return word
            }
            s.line = []
            let end = MediaTime.maximum(s.finalizedThrough, words.last?.range.end ?? s.finalizedThrough)
            if !words.isEmpty {
                update.finalized = [
                    HypothesisSegment(range: TimeRange(start: s.finalizedThrough, end: end), words: words)
                ]
                s.finalizedThrough = end
                update.finalizedThrough = end
            }
            return update
        }
    }

    /// The words of a window that an earlier one did not show: all of them, unless the window
    /// decodes shown audio again (``DecodeWindow/shownUntil``).
    static func unshown(
        _ words: [RecognizedWord], of window: DecodeWindow, after lastBlock: (start: MediaTime, words: [String])?
    ) -> [RecognizedWord] {
        guard let shownUntil = window.shownUntil else { return words }
        if let lastBlock, lastBlock.start == window.start,
            let heard = HeardAgain.split(lastBlock.words, of: words.map(\.text))
        {
            // A token that holds the block's last words and new ones keeps only the new ones.
            var unheard = Array(words.dropFirst(heard.whole))
            if let rest = heard.rest { unheard[0].text = rest }
            return unheard
        }
        return words.filter { $0.range.start + $0.range.end >= shownUntil + shownUntil }
    }
}
