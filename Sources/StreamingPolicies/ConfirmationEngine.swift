import Foundation
import SpeechCore

/// WhisperKit's `AudioStreamTranscriber` over any engine: once more than `minimumNewAudio` seconds
/// have arrived since the last decode, and (with `usesEnergyGate`) some of them are voiced, the
/// audio from the end of the last confirmed segment on is decoded again; all its segments but the
/// last `requiredSegments` are confirmed (final results), the rest are shown (the volatile result).
public struct ConfirmationPolicy: StreamingPolicy {
    /// WhisperKit's defaults.
    public var requiredSegments = 2
    public var silenceThreshold: Float = 0.3
    public var minimumNewAudio = 1.0
    public var usesEnergyGate = true

    public init(
        requiredSegments: Int = 2, silenceThreshold: Float = 0.3, minimumNewAudio: Double = 1.0,
        usesEnergyGate: Bool = true
    ) {
        self.requiredSegments = requiredSegments
        self.silenceThreshold = silenceThreshold
        self.minimumNewAudio = minimumNewAudio
        self.usesEnergyGate = usesEnergyGate
    }

    public init() { self.init(requiredSegments: 2) }

    public static let idSuffix = "+confirmation"

    /// `confirm2,silence0.3,new1s` (`nogate` without the energy gate).
    public var nameSettings: [String] {
        [
            "confirm\(requiredSegments)", usesEnergyGate ? "silence\(silenceThreshold)" : "nogate",
            "new\(EngineName.number(minimumNewAudio))s",
        ]
    }

    public func makeSession(
        base: any RecognitionEngine, configuration: EngineSessionConfiguration
    ) -> any RecognitionSession {
        ConfirmationSession(base: base, configuration: configuration, parameters: self)
    }
}

/// WhisperKit's engine, e.g. `whisperkit-stream[confirm2,silence0.3,new1s,tiny.en,int8,beam1,t1]`.
public typealias ConfirmationEngine = StreamingPolicyEngine<ConfirmationPolicy>

/// WhisperKit's energy gate, as a value: each 100 ms of audio gets a relative energy in 0…1 (its
/// RMS in dB between the quietest of the previous 20 buffers and full scale), and a decode is
/// worth running when one of the new buffers but the last second's is above the threshold.
public struct EnergyGate: Sendable {
    public let bufferSamples: Int
    public private(set) var relativeEnergy: [Float] = []
    private var averages: [Float] = []
    private var pending: [Float] = []

    public init(rate: Double) {
        bufferSamples = max(1, Int((rate / 10).rounded()))
    }

    public mutating func append(_ samples: [Float]) {
        pending += samples
        while pending.count >= bufferSamples {
            let buffer = pending.prefix(bufferSamples)
            pending.removeFirst(bufferSamples)
            let rms = (buffer.reduce(Float(0)) { $0 + $1 * $1 } / Float(buffer.count)).squareRoot()
            // The quietest of the last 20 buffers, or 1e-3 (WhisperKit's "silent room") before any.
            let reference = max(1e-8, averages.suffix(20).min() ?? 1e-3)
            let db = 20 * log10(rms), referenceDB = 20 * log10(reference)
            let relative = (db - referenceDB) / (0 - referenceDB)
            relativeEnergy.append(relative.isNaN ? 0 : max(0, min(relative, 1)))
            averages.append(rms)
        }
    }

    /// Whether the last `newSeconds` of audio hold voice: WhisperKit looks at their buffers but
    /// the last ten (at least ten), for one above `threshold`.
    public func voiceDetected(newSeconds: Double, threshold: Float) -> Bool {
        let recent = relativeEnergy.suffix(Int(newSeconds / 0.1))
        return recent.prefix(max(10, recent.count - 10)).contains { $0 > threshold }
    }
}

/// One confirming stream. Calls come one at a time (the protocol's rule); state is guarded anyway.
final class ConfirmationSession: RecognitionSession, @unchecked Sendable {
    private let base: any RecognitionEngine
    private let configuration: EngineSessionConfiguration
    private let parameters: ConfirmationPolicy
    private struct State {
        var samples: [Float] = []
        var rate = 16_000.0
        var bufferStart: MediaTime = .zero
        var gate: EnergyGate?
        /// Samples that arrived since the last decode.
        var sinceDecode = 0
        /// Where the next decode starts: the end of the last confirmed segment.
        var confirmedEnd: MediaTime = .zero
        var expected: MediaTime?
        var finalizedThrough: MediaTime = .zero
        var closed = false
    }
    private let state = Locked(State())

    init(
        base: any RecognitionEngine, configuration: EngineSessionConfiguration,
        parameters: ConfirmationPolicy
    ) {
        self.base = base
        self.configuration = configuration
        self.parameters = parameters
    }

    /// WhisperKit's confirmation: all segments but the last `required`, when there are more.
    static func split(
        _ segments: [HypothesisSegment], required: Int
    ) -> (confirmed: [HypothesisSegment], shown: [HypothesisSegment]) {
        guard segments.count > required else { return ([], segments) }
        return (Array(segments.dropLast(required)), Array(segments.suffix(required)))
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        var update = HypothesisUpdate(computeSeconds: 0)  // keeping audio is no engine work
        let gap = state.withLock { s in s.expected.map { $0 != start } ?? false }
        if gap { update = try await decode(final: true) }
        let due = try state.withLock { s -> Bool in
            guard !s.closed else { throw CancellationError() }
            let samples = audio.floatChannels.first ?? []
            if s.samples.isEmpty && s.gate == nil {
                s.bufferStart = start
                s.confirmedEnd = MediaTime.maximum(s.confirmedEnd, start)
                s.rate = audio.format.sampleRate
                s.gate = EnergyGate(rate: s.rate)
            }
            s.samples += samples
            s.gate!.append(samples)
            s.sinceDecode += samples.count
            s.expected = start + audio.duration
            let newSeconds = Double(s.sinceDecode) / s.rate
            guard newSeconds > parameters.minimumNewAudio else { return false }
            return !parameters.usesEnergyGate
                || s.gate!.voiceDetected(newSeconds: newSeconds, threshold: parameters.silenceThreshold)
        }
        guard due else { return update }
        let next = try await decode(final: false)
        return WindowDecode.merge(update, next)
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await decode(final: true)
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        state.withLock { s in
            if let end = s.expected { s.finalizedThrough = MediaTime.maximum(s.finalizedThrough, end) }
            s.samples = []
            s.gate = nil
            s.sinceDecode = 0
            s.confirmedEnd = s.finalizedThrough
            return HypothesisUpdate(finalizedThrough: s.finalizedThrough, computeSeconds: 0)
        }
    }

    func close() async {
        state.withLock { $0.closed = true }
    }

    /// Decodes from the confirmed end to the end of the audio; `final` confirms every segment and
    /// starts the stream afresh.
    private func decode(final: Bool) async throws -> HypothesisUpdate {
        let (samples, rate, start) = state.withLock { s -> ([Float], Double, MediaTime) in
            s.sinceDecode = 0
            let skip = (s.confirmedEnd - s.bufferStart).sampleIndex(sampleRate: s.rate).map { max(0, Int($0)) } ?? 0
            return (
                Array(s.samples.dropFirst(skip)), s.rate,
                s.bufferStart + MediaTime(sampleIndex: Int64(min(skip, s.samples.count)), sampleRate: s.rate)
            )
        }
        let decoded = try await WindowDecode.run(
            base: base, configuration: configuration, samples: samples, rate: rate, start: start)
        let (segments, compute) = (decoded.segments, decoded.computeSeconds)
        return state.withLock { s in
            var update = HypothesisUpdate(computeSeconds: compute)
            let (confirmed, shown) =
                final ? (segments, []) : Self.split(segments, required: parameters.requiredSegments)
            let words = confirmed.flatMap(\.words)
            if let last = confirmed.last, last.range.end > s.finalizedThrough || final {
                let end = MediaTime.maximum(s.finalizedThrough, last.range.end)
                update.finalized = [
                    HypothesisSegment(range: TimeRange(start: s.finalizedThrough, end: end), words: words)
                ]
                s.finalizedThrough = end
                s.confirmedEnd = end
                update.finalizedThrough = end
                // Confirmed audio is never decoded again: the buffer need not keep it.
                if let drop = (end - s.bufferStart).sampleIndex(sampleRate: s.rate), drop > 0 {
                    let count = min(Int(drop), s.samples.count)
                    s.samples.removeFirst(count)
                    s.bufferStart = s.bufferStart + MediaTime(sampleIndex: Int64(count), sampleRate: s.rate)
                }
            }
            if let end = s.expected, !shown.isEmpty {
                update.volatile = HypothesisSegment(
                    range: TimeRange(start: s.finalizedThrough, end: end), words: shown.flatMap(\.words))
            }
            if final {
                if let end = s.expected {
                    s.finalizedThrough = MediaTime.maximum(s.finalizedThrough, end)
                    update.finalizedThrough = s.finalizedThrough
                }
                s.samples = []
                s.gate = nil
                s.confirmedEnd = s.finalizedThrough
            }
            return update
        }
    }
}
