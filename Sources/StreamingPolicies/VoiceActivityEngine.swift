import Foundation
import SpeechCore

/// whisper_streaming's recommended mode, VAC (`VACOnlineASRProcessor`, ufal/whisper_streaming
/// 1f25a1a): a voice activity detector gates the LocalAgreement processor of
/// ``LocalAgreementPolicy``. Each piece of audio goes to the detector
/// (``VoiceActivityIterator``: threshold 0.5, 500 ms of silence, 100 ms padding); only voiced
/// audio reaches the processor, which starts afresh at each start of speech and decodes once more
/// than `chunkSeconds` of voiced audio has arrived since its last decode; at an end of speech its
/// unconfirmed words are committed without another decode (``VoiceActivityController``).
///
/// whisper_streaming loads Silero VAD from torch.hub; here the detector is the engine's own
/// (faster-whisper's bundled Silero VAD v6 in the Whisper worker). At the end of the input the
/// processor's buffer is decoded once more and everything committed, as `whisper-streaming-la2`
/// does here (whisper_streaming's `finish()` would drop what the last decode had not heard).
public struct VoiceActivityPolicy: StreamingPolicy {
    /// Where the speech probabilities come from; a session without one fails.
    public var detector: (any VoiceActivityDetector)?
    /// The processor decodes after more than this much voiced audio (`--min-chunk-size`, 1 s).
    public var chunkSeconds = 1.0
    public var threshold: Float = 0.5
    public var minimumSilenceSeconds = 0.5
    public var speechPadSeconds = 0.1
    /// The processor behind the gate: LocalAgreement-2, 15 s segment trimming.
    public var online = LocalAgreementPolicy()

    public init() {}

    public init(detector: any VoiceActivityDetector) {
        self.detector = detector
    }

    public static let idSuffix = "+vac"

    public var missingPart: String? { detector == nil ? "no voice activity detector" : nil }

    /// `silero-vad-v6,vth0.5,silence0.5s,pad0.1s,chunk1s,la2,trim15s`.
    public var nameSettings: [String] {
        [
            detector?.model ?? "no-vad", "vth\(EngineName.number(Double(threshold)))",
            "silence\(EngineName.number(minimumSilenceSeconds))s", "pad\(EngineName.number(speechPadSeconds))s",
            "chunk\(EngineName.number(chunkSeconds))s", "la\(online.agreement)",
            "trim\(EngineName.number(online.trimSeconds))s",
        ]
    }

    /// Policies are the same when their names are.
    public static func == (a: Self, b: Self) -> Bool { a.nameSettings == b.nameSettings }
    public func hash(into hasher: inout Hasher) { hasher.combine(nameSettings) }

    public func makeSession(
        base: any RecognitionEngine, configuration: EngineSessionConfiguration
    ) -> any RecognitionSession {
        var inner = configuration
        inner.wordTimes = true  // LocalAgreement matches words by their times
        return VoiceActivitySession(base: base, configuration: inner, policy: self)
    }
}

/// whisper_streaming's VAC engine, e.g.
/// `whisper-streaming-vac[silero-vad-v6,vth0.5,silence0.5s,pad0.1s,chunk1s,la2,trim15s,tiny.en,int8,beam1,t1]`.
public typealias VoiceActivityEngine = StreamingPolicyEngine<VoiceActivityPolicy>

/// One VAC stream. Calls come one at a time (the protocol's rule); state is guarded anyway.
final class VoiceActivitySession: RecognitionSession, @unchecked Sendable {
    private let base: any RecognitionEngine
    private let configuration: EngineSessionConfiguration
    private let policy: VoiceActivityPolicy
    private struct State {
        var online: OnlineBuffer
        var controller: VoiceActivityController?
        var iterator: VoiceActivityIterator?
        var stream: (any VoiceActivityStream)?
        /// The time of the detector stream's first sample, and the rate of its audio.
        var origin: MediaTime = .zero
        var rate = 16_000.0
        var closed = false
    }
    private let state: Locked<State>

    init(base: any RecognitionEngine, configuration: EngineSessionConfiguration, policy: VoiceActivityPolicy) {
        self.base = base
        self.configuration = configuration
        self.policy = policy
        state = Locked(State(online: OnlineBuffer(policy: policy.online)))
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        var update = HypothesisUpdate(computeSeconds: 0)
        let (gap, closed) = state.withLock { s in (s.online.expected.map { $0 != start } ?? false, s.closed) }
        if closed { throw CancellationError() }
        if gap { update = try await endStream(decoding: true) }
        let samples = audio.floatChannels.first ?? []
        let stream = try await openStream(at: start, rate: audio.format.sampleRate)
        let voice = try await stream.append(samples)
        update = WindowDecode.merge(update, HypothesisUpdate(computeSeconds: voice.computeSeconds))
        let iteration = state.withLock { s in
            let event = s.iterator!(voice.probabilities)
            for action in s.controller!.insert(samples, event: event) {
                switch action {
                case .restart(let sample):
                    s.online.restart(at: s.origin + MediaTime(sampleIndex: Int64(sample), sampleRate: s.rate))
                case .send(let voiced):
                    s.online.append(voiced, rate: s.rate, start: nil, end: start + audio.duration)
                }
            }
            s.online.expected = start + audio.duration
            return s.controller!.processIteration()
        }
        switch iteration {
        case .none:
            return update
        case .finish:
            return WindowDecode.merge(update, state.withLock { $0.online.finish() })
        case .decode:
            return WindowDecode.merge(update, try await decode(final: false))
        }
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try await endStream(decoding: true)
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        (try? await endStream(decoding: false)) ?? HypothesisUpdate(computeSeconds: 0)
    }

    func close() async {
        let stream = state.withLock { s in
            s.closed = true
            defer { s.stream = nil }
            return s.stream
        }
        await stream?.close()
    }

    /// The detector stream, opened at the first audio after a start or an end of stream.
    private func openStream(at start: MediaTime, rate: Double) async throws -> any VoiceActivityStream {
        if let stream = state.withLock({ $0.stream }) { return stream }
        guard let detector = policy.detector else {
            // The engine refuses such a policy first; this is the policy used on its own.
            throw EngineError.failed(
                engine: base.id + VoiceActivityPolicy.idSuffix, reason: "no voice activity detector")
        }
        let stream = try await detector.makeStream()
        state.withLock { s in
            s.stream = stream
            s.origin = start
            s.rate = rate
            s.iterator = VoiceActivityIterator(
                rate: rate, windowSamples: stream.windowSamples, threshold: policy.threshold,
                minimumSilenceSeconds: policy.minimumSilenceSeconds, speechPadSeconds: policy.speechPadSeconds)
            s.controller = VoiceActivityController(rate: Int(rate), chunkSeconds: policy.chunkSeconds)
        }
        return stream
    }

    /// The end of the input (or a gap in it): a voiced buffer is decoded once more and all of it
    /// committed (`decoding`), an ended utterance finished; everything received is final and the
    /// next audio opens a new detector stream.
    private func endStream(decoding: Bool) async throws -> HypothesisUpdate {
        let (status, ended) = state.withLock { ($0.controller?.status, $0.controller?.isFinal ?? false) }
        var update = HypothesisUpdate(computeSeconds: 0)
        if decoding && status == .voice {
            update = try await decode(final: true)
        } else if decoding && ended {
            update = state.withLock { $0.online.finish() }
        }
        let stream = state.withLock { s in
            if s.online.endStream() { update.finalizedThrough = s.online.finalizedThrough }
            s.controller = nil
            s.iterator = nil
            defer { s.stream = nil }
            return s.stream
        }
        await stream?.close()
        return update
    }

    private func decode(final: Bool) async throws -> HypothesisUpdate {
        let online = state.withLock { $0.online }
        let decoded = try await online.decode(base: base, configuration: configuration)
        return state.withLock { $0.online.apply(decoded, final: final) }
    }
}
