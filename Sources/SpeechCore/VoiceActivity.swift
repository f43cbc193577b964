/// A voice activity detector: the probability that each fixed window of a stream's audio is
/// speech. Streaming policies that gate decoding on voice (whisper_streaming's VAC) take one;
/// the Whisper worker runs Silero VAD.
public protocol VoiceActivityDetector: Sendable {
    /// The model, as engine names show it (`silero-vad-v6`).
    var model: String { get }
    /// A stream of its own (the detector keeps state across windows): audio in order, from the
    /// stream's first sample.
    func makeStream() async throws -> any VoiceActivityStream
}

/// One stream's detector state.
public protocol VoiceActivityStream: AnyObject, Sendable {
    /// Samples per window (512 at 16 kHz for Silero VAD).
    var windowSamples: Int { get }
    /// Takes the audio that follows what the stream had (mono, at the engine's rate) and returns
    /// the speech probability of every window it completed, in order; a partial window waits for
    /// the next audio.
    func append(_ samples: [Float]) async throws -> VoiceProbabilities
    /// Ends the stream and releases what it holds.
    func close() async
}

/// What a detector said of the windows one piece of audio completed.
public struct VoiceProbabilities: Sendable, Hashable {
    /// 0…1 per window, in order.
    public var probabilities: [Float]
    /// CPU seconds the detector spent, when it measures them (counted as the engine's compute).
    public var computeSeconds: Double?

    public init(probabilities: [Float], computeSeconds: Double?) {
        self.probabilities = probabilities
        self.computeSeconds = computeSeconds
    }
}
