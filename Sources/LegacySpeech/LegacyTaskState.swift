/// The life of a legacy recognition task as a pure state machine: which state it is in and which
/// delegate callbacks each event produces, in the order the legacy framework documents.
///
/// starting → running (first audio) → finishing (`finish()` or end of audio) → completed;
/// `cancel()` from any live state → canceling → completed. Completion happens once.
public struct LegacyTaskStateMachine: Sendable, Equatable {
    public enum State: Int, Sendable, Equatable {
        case starting, running, finishing, canceling, completed
    }

    /// What the task must tell its delegate (or result handler), in order.
    public enum Callback: Sendable, Equatable {
        case detectedSpeech
        case hypothesized
        case finishedReadingAudio
        case finishedRecognition
        case wasCancelled
        case finishedSuccessfully(Bool)
    }

    public private(set) var state: State = .starting
    public private(set) var detectedSpeech = false

    public init() {}

    public var isLive: Bool { state != .completed && state != .canceling }

    /// Audio was processed; `heardWords` whether any text exists yet.
    public mutating func processedAudio(heardWords: Bool) -> [Callback] {
        guard isLive else { return [] }
        if state == .starting { state = .running }
        guard heardWords, !detectedSpeech else { return [] }
        detectedSpeech = true
        return [.detectedSpeech]
    }

    /// A new partial transcription (only while live and not yet final).
    public mutating func hypothesis() -> [Callback] {
        guard isLive else { return [] }
        var out = processedAudio(heardWords: true)
        out.append(.hypothesized)
        return out
    }

    /// No more audio will be read (`finish()`, `endAudio()`, end of file, or the duration limit).
    public mutating func endOfAudio() -> [Callback] {
        guard state == .starting || state == .running else { return [] }
        state = .finishing
        return [.finishedReadingAudio]
    }

    /// The recogniser delivered its final result (`success`) or failed.
    public mutating func completed(success: Bool) -> [Callback] {
        guard isLive else { return [] }
        var out = state == .finishing ? [] : endOfAudio()
        if success { out.append(.finishedRecognition) }
        state = .completed
        out.append(.finishedSuccessfully(success))
        return out
    }

    /// `cancel()`: no final result is delivered.
    public mutating func cancel() -> [Callback] {
        guard isLive else { return [] }
        state = .canceling
        return [.wasCancelled]
    }

    /// The cancelled task's work has stopped.
    public mutating func cancellationFinished() -> [Callback] {
        guard state == .canceling else { return [] }
        state = .completed
        return [.finishedSuccessfully(false)]
    }
}
