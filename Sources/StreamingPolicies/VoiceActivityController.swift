/// whisper_streaming's voice activity controller (`VACOnlineASRProcessor` in whisper_online.py,
/// ufal/whisper_streaming 1f25a1a) as a value: each piece of audio, with the event the detector
/// made of it, becomes what to do to the LocalAgreement processor behind it.
///
/// - At a start, the processor begins afresh at the start's time (its committed text, and so its
///   prompt, is forgotten) and gets the audio from the start on.
/// - While voiced, every piece goes to the processor.
/// - At an end, the processor gets the audio up to it and the utterance is final: the next
///   `processIteration()` commits the processor's unconfirmed words without decoding again, so
///   words heard only since its last decode are lost.
/// - While not voiced, only the last second is kept, where a later start may reach back.
/// - The processor decodes only after more than `chunkSeconds` of audio reached it.
///
/// Audio positions are cut as numpy slices are, negative positions counting from the end; an end
/// that lies before the pieces kept (the usual case: voiced pieces go on at once) cuts nothing
/// from the piece, so the processor gets the silence up to the end's detection too. Pure.
public struct VoiceActivityController: Sendable, Hashable {
    /// What the processor behind the controller is told to do, in order.
    public enum Action: Sendable, Hashable {
        /// Begin afresh with audio that starts this many samples into the stream.
        case restart(atSample: Int)
        /// Take these samples after what it has.
        case send([Float])
    }

    /// What `processIteration()` asks of the processor.
    public enum Iteration: Sendable, Hashable {
        case none
        /// Decode its buffer again (whisper_streaming's `process_iter`).
        case decode
        /// Commit what it has without decoding (`finish`): the utterance ended.
        case finish
    }

    public enum Status: Sendable, Hashable { case voice, nonvoice }

    /// The detector's sample rate: one second of it is kept while not voiced.
    public let rate: Int
    /// 1 s (whisper_streaming's `--min-chunk-size`).
    public let chunkSeconds: Double
    public private(set) var status: Status?
    /// Audio not yet given to the processor, and the stream position of its first sample.
    public private(set) var buffer: [Float] = []
    public private(set) var bufferOffset = 0
    /// Samples given to the processor since it last decoded.
    public private(set) var sinceDecode = 0
    /// The utterance ended; the next iteration finishes it.
    public private(set) var isFinal = false

    public init(rate: Int = 16_000, chunkSeconds: Double = 1) {
        self.rate = rate
        self.chunkSeconds = chunkSeconds
    }

    /// `insert_audio_chunk`: takes a piece of audio and the event the detector made of it.
    public mutating func insert(_ audio: [Float], event: VoiceActivityIterator.Event?) -> [Action] {
        buffer += audio
        var actions: [Action] = []
        func send(_ samples: [Float]) {
            actions.append(.send(samples))
            sinceDecode += samples.count
        }
        if let event {
            switch (event.start, event.end) {
            case (let start?, nil):
                status = .voice
                actions.append(.restart(atSample: start))
                send(Self.slice(buffer, from: start - bufferOffset, to: nil))
            case (nil, let end?):
                status = .nonvoice
                send(Self.slice(buffer, from: nil, to: end - bufferOffset))
                isFinal = true
            case (let start?, let end?):
                status = .nonvoice
                actions.append(.restart(atSample: start))
                send(Self.slice(buffer, from: start - bufferOffset, to: end - bufferOffset))
                isFinal = true
            case (nil, nil):
                break
            }
            clearBuffer()
        } else if status == .voice {
            send(buffer)
            clearBuffer()
        } else {
            let drop = max(0, buffer.count - rate)
            bufferOffset += drop
            buffer.removeFirst(drop)
        }
        return actions
    }

    /// `process_iter`: finish an ended utterance, else decode once more than `chunkSeconds` of
    /// audio reached the processor since it last decoded (strictly more, as written there).
    public mutating func processIteration() -> Iteration {
        if isFinal {
            isFinal = false
            sinceDecode = 0
            return .finish
        }
        guard Double(sinceDecode) > Double(rate) * chunkSeconds else { return .none }
        sinceDecode = 0
        return .decode
    }

    private mutating func clearBuffer() {
        bufferOffset += buffer.count
        buffer = []
    }

    /// `samples[from:to]` with numpy's reading of negative and out-of-range positions.
    static func slice(_ samples: [Float], from: Int?, to: Int?) -> [Float] {
        func position(_ index: Int?, default value: Int) -> Int {
            guard let index else { return value }
            return index < 0 ? max(0, samples.count + index) : min(index, samples.count)
        }
        let lower = position(from, default: 0), upper = position(to, default: samples.count)
        return lower < upper ? Array(samples[lower..<upper]) : []
    }
}
