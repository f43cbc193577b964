import Engines
import Foundation
import SpeechCore

/// whisper.cpp's `stream` example (its sliding-window mode) over any engine: every `step` seconds
/// of new audio, a window of that audio plus what the previous window kept (up to `length` +
/// `keep` seconds) is decoded afresh and shown as the current line; every `stepsPerLine` decodes
/// the line is committed and the next window starts from the last `keep` seconds only, to soften
/// words cut at the boundary. Lines are final results; the current line is the volatile result.
public struct SlidingWindowEngine: PolicyEngine {
    public struct Parameters: Sendable, Hashable {
        /// whisper.cpp's defaults: `--step 3000 --length 10000 --keep 200`.
        public var step = 3.0
        public var length = 10.0
        public var keep = 0.2

        public init(step: Double = 3.0, length: Double = 10.0, keep: Double = 0.2) {
            self.step = step
            self.length = max(length, step)
            self.keep = min(keep, step)
        }

        /// Decodes per committed line: length / step − 1 in whole milliseconds, at least 1.
        public var stepsPerLine: Int { max(1, Int((length * 1000).rounded()) / Int((step * 1000).rounded()) - 1) }
    }

    public let base: any RecognitionEngine
    public let parameters: Parameters
    public let id: String
    public let capabilities: EngineCapabilities

    public init(base: any RecognitionEngine, parameters: Parameters = Parameters(), id: String? = nil) {
        self.base = base
        self.parameters = parameters
        self.id = id ?? base.id + "+sliding-window"
        capabilities = Self.capabilities(of: base)
    }

    /// `whisper-cpp-stream[step3s,len10s,keep0.2s,tiny.en,int8,beam1,t1]`.
    public var name: String {
        EngineName.make(id: id, settings: ["step\(EngineName.number(parameters.step))s", "len\(EngineName.number(parameters.length))s",
                                           "keep\(EngineName.number(parameters.keep))s"] + EngineName.settings(of: base.name))
    }

    public func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        SlidingWindowSession(base: base, configuration: try baseConfiguration(configuration), parameters: parameters)
    }
}

/// The window arithmetic of whisper.cpp's `stream`, as a value: audio in, windows to decode out.
public struct SlidingWindow: Sendable {
    public let parameters: SlidingWindowEngine.Parameters
    public let rate: Double
    /// The previous window, or after a committed line its last `keep` seconds (`pcmf32_old`).
    public private(set) var old: [Float] = []
    /// Audio not decoded yet, and the time of its first sample.
    public private(set) var new: [Float] = []
    private var newStart: MediaTime?
    public private(set) var decodes = 0

    public init(parameters: SlidingWindowEngine.Parameters, rate: Double) {
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
    public mutating func nextWindow(final: Bool) -> (samples: [Float], start: MediaTime, commits: Bool)? {
        guard let newStart, !new.isEmpty else { return nil }
        let take = min(old.count, max(0, samples(parameters.keep) + samples(parameters.length) - new.count))
        let window = Array(old.suffix(take)) + new
        let start = newStart - MediaTime(sampleIndex: Int64(take), sampleRate: rate)
        new = []
        self.newStart = nil
        decodes += 1
        let commits = final || decodes % parameters.stepsPerLine == 0
        old = commits ? Array(window.suffix(samples(parameters.keep))) : window
        return (window, start, commits)
    }

    /// A new stream: nothing kept.
    public mutating func reset() {
        old = []
        new = []
        newStart = nil
        decodes = 0
    }
}

/// One sliding-window stream. Calls come one at a time (the protocol's rule); state is guarded anyway.
final class SlidingWindowSession: RecognitionSession, @unchecked Sendable {
    private let base: any RecognitionEngine
    private let configuration: EngineSessionConfiguration
    private struct State {
        var window: SlidingWindow?
        let parameters: SlidingWindowEngine.Parameters
        /// The current (uncommitted) line's words.
        var line: [RecognizedWord] = []
        var expected: MediaTime?
        var finalizedThrough: MediaTime = .zero
        var closed = false
    }
    private let state: Locked<State>

    init(base: any RecognitionEngine, configuration: EngineSessionConfiguration, parameters: SlidingWindowEngine.Parameters) {
        self.base = base
        self.configuration = configuration
        state = Locked(State(parameters: parameters))
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        var update = HypothesisUpdate(computeSeconds: 0)   // keeping audio is no engine work
        let gap = state.withLock { s in s.expected.map { $0 != start } ?? false }
        if gap { update = try await commitRest() }
        let due = try state.withLock { s -> Bool in
            guard !s.closed else { throw CancellationError() }
            if s.window == nil { s.window = SlidingWindow(parameters: s.parameters, rate: audio.format.sampleRate) }
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
            decoded = try await WindowDecode.run(base: base, configuration: configuration, samples: next.samples,
                                                 rate: state.withLock { $0.window!.rate }, start: next.start)
        }
        return state.withLock { s in
            var update = HypothesisUpdate(computeSeconds: decoded.computeSeconds)
            if next != nil { s.line = decoded.words }
            guard next?.commits ?? final else {
                if let end = s.expected, !s.line.isEmpty {
                    update.volatile = HypothesisSegment(range: TimeRange(start: s.finalizedThrough, end: end), words: s.line)
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
                update.finalized = [HypothesisSegment(range: TimeRange(start: s.finalizedThrough, end: end), words: words)]
                s.finalizedThrough = end
                update.finalizedThrough = end
            }
            return update
        }
    }
}
