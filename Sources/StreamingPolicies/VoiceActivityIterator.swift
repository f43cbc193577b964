/// Silero VAD's `VADIterator` with whisper_streaming's defaults and its `FixedVADIterator`
/// (silero_vad_iterator.py, ufal/whisper_streaming 1f25a1a), over the detector's window
/// probabilities: speech starts at the first window at or above `threshold`, padded back by
/// `speechPadSamples` (and one window); it ends once windows below `threshold − 0.15` have run for
/// `minimumSilenceSamples`, the end put at the first quiet window's end plus the pad, less a window.
///
/// One call takes the windows one piece of audio completed and reports one event at most, as
/// FixedVADIterator merges them: the first event stands, a later end replaces its end, and a later
/// start after an end removes that end. Its flaw is kept: an end followed by a start in one call
/// leaves an empty event, reported as none, so both are lost and the two stretches of speech run
/// together. Pure: probabilities in, sample positions out.
public struct VoiceActivityIterator: Sendable, Hashable {
    /// A change of state, in samples from the stream's start.
    public struct Event: Sendable, Hashable {
        public var start: Int?
        public var end: Int?

        public init(start: Int? = nil, end: Int? = nil) {
            self.start = start
            self.end = end
        }
    }

    /// 0.5 (Silero's and whisper_streaming's default).
    public let threshold: Float
    /// 500 ms of windows under the lower threshold end speech (whisper_streaming's choice).
    public let minimumSilenceSamples: Int
    /// 100 ms padding on either side (whisper_streaming's choice).
    public let speechPadSamples: Int
    /// 512 samples at 16 kHz.
    public let windowSamples: Int

    public private(set) var triggered = false
    private var temporaryEnd = 0
    private var currentSample = 0

    public init(
        rate: Double = 16_000, windowSamples: Int = 512, threshold: Float = 0.5, minimumSilenceSeconds: Double = 0.5,
        speechPadSeconds: Double = 0.1
    ) {
        self.threshold = threshold
        self.windowSamples = windowSamples
        minimumSilenceSamples = Int(rate * minimumSilenceSeconds)
        speechPadSamples = Int(rate * speechPadSeconds)
    }

    /// FixedVADIterator's call: the windows one piece of audio completed, merged into one event.
    public mutating func callAsFunction(_ probabilities: [Float]) -> Event? {
        var merged: Event?
        for probability in probabilities {
            let event = step(probability)
            guard merged != nil else {
                merged = event
                continue
            }
            guard let event else { continue }
            if let end = event.end { merged!.end = end }
            if event.start != nil && merged!.end != nil { merged!.end = nil }
        }
        return merged == Event() ? nil : merged
    }

    /// VADIterator's call on one window.
    mutating func step(_ probability: Float) -> Event? {
        currentSample += windowSamples
        if probability >= threshold && temporaryEnd != 0 { temporaryEnd = 0 }
        if probability >= threshold && !triggered {
            triggered = true
            return Event(start: max(0, currentSample - speechPadSamples - windowSamples))
        }
        guard probability < threshold - 0.15 && triggered else { return nil }
        if temporaryEnd == 0 { temporaryEnd = currentSample }
        guard currentSample - temporaryEnd >= minimumSilenceSamples else { return nil }
        let end = temporaryEnd + speechPadSamples - windowSamples
        temporaryEnd = 0
        triggered = false
        return Event(end: end)
    }
}
