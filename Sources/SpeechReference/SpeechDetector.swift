import AVFAudio
import CoreMedia
import Foundation
import SpeechCore

/// Reports which stretches of audio contain speech, from the signal's level (no locale, no assets).
public final class SpeechDetector: SpeechModule, @unchecked Sendable {
    public enum SensitivityLevel: Int, CaseIterable, Sendable, Equatable, Hashable {
        case low, medium, high
    }

    public struct DetectionOptions: Sendable, Equatable, Hashable {
        public let sensitivityLevel: SensitivityLevel
        public init(sensitivityLevel: SensitivityLevel) { self.sensitivityLevel = sensitivityLevel }
    }

    /// A stretch of audio with or without speech; always final.
    public struct Result: SpeechModuleResult, Sendable, CustomStringConvertible, Equatable, Hashable {
        public let range: CMTimeRange
        public let resultsFinalizationTime: CMTime
        public let speechDetected: Bool
        public var description: String { "\(speechDetected ? "speech" : "no speech") \(range)" }
    }

    public let detectionOptions: DetectionOptions
    public let reportResults: Bool
    let channel: DetectorChannel
    /// What the analyzer drives: the channel, or a faulty wrapper of it in a mutation build.
    let moduleChannel: any ModuleChannel

    public init(detectionOptions: DetectionOptions, reportResults: Bool) {
        self.detectionOptions = detectionOptions
        self.reportResults = reportResults
        channel = DetectorChannel(sensitivity: detectionOptions.sensitivityLevel, reportResults: reportResults)
        moduleChannel = FaultPlan.channel(channel)
    }

    public convenience init() {
        self.init(detectionOptions: DetectionOptions(sensitivityLevel: .medium), reportResults: false)
    }

    public var results: ModuleResults<Result> { ModuleResults(broadcast: channel.broadcast) }

    public var availableCompatibleAudioFormats: [AVAudioFormat] {
        channel.compatibleFormats.compactMap(AVAudioFormat.init)
    }
}

extension SpeechDetector: ModuleChannelOwner {}

/// Level-based speech/non-speech segmentation with hangover: pure, fed frame by frame.
struct LevelSpeechSegmenter: Sendable {
    /// Frame level (dBFS) above which a frame counts as speech.
    let threshold: Double
    /// Non-speech frames tolerated inside speech before it ends.
    let hangoverFrames: Int
    private(set) var inSpeech = false
    private(set) var regionStart: Int64 = 0
    private var quietRun = 0

    init(sensitivity: SpeechDetector.SensitivityLevel, hangoverFrames: Int = 15) {
        switch sensitivity {
        case .low: threshold = -30
        case .medium: threshold = -40
        case .high: threshold = -50
        }
        self.hangoverFrames = hangoverFrames
    }

    /// Feeds one frame that starts at sample `start`; returns a closed region (start, end, speech) when the state changes.
    mutating func feed(level: Double, start: Int64, frameLength: Int64) -> (Int64, Int64, Bool)? {
        let speech = level >= threshold
        if inSpeech {
            if speech {
                quietRun = 0
                return nil
            }
            quietRun += 1
            guard quietRun > hangoverFrames else { return nil }
            // Speech ended where the quiet run began.
            let end = start - Int64(quietRun - 1) * frameLength
            defer {
                inSpeech = false
                regionStart = end
                quietRun = 0
            }
            return end > regionStart ? (regionStart, end, true) : nil
        }
        guard speech else { return nil }
        defer {
            inSpeech = true
            regionStart = start
            quietRun = 0
        }
        return start > regionStart ? (regionStart, start, false) : nil
    }

    /// Closes the open region at `end`.
    mutating func close(at end: Int64) -> (Int64, Int64, Bool)? {
        defer { regionStart = max(regionStart, end) }
        return end > regionStart ? (regionStart, end, inSpeech) : nil
    }
}

/// The detector's analyzer side: frames the audio, segments it and publishes regions.
final class DetectorChannel: ModuleChannel, @unchecked Sendable {
    let moduleName = "SpeechDetector"
    let broadcast = ResultBroadcast<SpeechDetector.Result>()
    let reportResults: Bool
    let compatibleFormats: [AudioFormat] = [16_000.0, 8_000, 22_050, 24_000, 44_100, 48_000].flatMap { rate in
        [
            AudioFormat(sampleRate: rate, channelCount: 1, sampleType: .float32),
            AudioFormat(sampleRate: rate, channelCount: 1, sampleType: .int16),
        ]
    }
    var isReady: Bool { true }
    var assetNeeds: (engine: (any RecognitionEngine)?, locale: String)? { nil }
    var resourceKey: String? { nil }

    private struct State {
        var segmenter: LevelSpeechSegmenter
        var rate: Double = 16_000
        var pending: [Float] = []
        var pendingStart: Int64 = 0
        var finalized: MediaTime = .zero
        var ended = false
    }
    private let state: Locked<State>

    init(sensitivity: SpeechDetector.SensitivityLevel, reportResults: Bool) {
        self.reportResults = reportResults
        state = Locked(State(segmenter: LevelSpeechSegmenter(sensitivity: sensitivity)))
    }

    var finalizedThrough: MediaTime { state.withLock { $0.finalized } }

    private let ownership = ModuleOwnership()

    func claim(by analyzer: ObjectIdentifier) -> Bool { ownership.claim(by: analyzer) }

    func open(context: AnalysisContext, onEngineFailure: @escaping @Sendable (any Error) -> Void) async throws {}

    func process(_ buffer: PCMBuffer, at start: MediaTime, end: MediaTime) async throws {
        let rate = buffer.format.sampleRate
        let mono =
            buffer.floatChannels.count == 1
            ? buffer.floatChannels[0]
            : (0..<buffer.frameCount).map { i in
                buffer.floatChannels.reduce(0) { $0 + $1[i] } / Float(buffer.floatChannels.count)
            }
        let results = state.withLock { state -> [SpeechDetector.Result] in
            guard !state.ended else { return [] }
            var out: [SpeechDetector.Result] = []
            let startSample = start.sampleIndex(sampleRate: rate) ?? 0
            if state.pending.isEmpty || startSample != state.pendingStart + Int64(state.pending.count) {
                state.pending = []
                state.pendingStart = startSample
            }
            state.rate = rate
            state.pending += mono
            let frame = Int(rate / 50)  // 20 ms
            while state.pending.count >= frame {
                let power = state.pending[0..<frame].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(frame)
                let level = 10 * log10(max(power, 1e-12))
                if let region = state.segmenter.feed(level: level, start: state.pendingStart, frameLength: Int64(frame))
                {
                    out.append(Self.result(region, rate: rate))
                }
                state.pending.removeFirst(frame)
                state.pendingStart += Int64(frame)
            }
            if let last = out.last { state.finalized = MediaTime.maximum(state.finalized, last.range.end) }
            return out
        }
        if reportResults { results.forEach(broadcast.publish) }
    }

    func finalize(through time: MediaTime, consumedEnd: MediaTime) async throws {
        let result = state.withLock { state -> SpeechDetector.Result? in
            guard !state.ended, let end = time.sampleIndex(sampleRate: state.rate) else { return nil }
            state.finalized = MediaTime.maximum(state.finalized, time)
            return state.segmenter.close(at: end).map { Self.result($0, rate: state.rate) }
        }
        if reportResults, let result { broadcast.publish(result) }
    }

    func cancel(before time: MediaTime, consumedEnd: MediaTime) async {
        state.withLock { state in
            if let end = time.sampleIndex(sampleRate: state.rate) { _ = state.segmenter.close(at: end) }
            state.finalized = MediaTime.maximum(state.finalized, time)
        }
    }

    func endResults(throwing error: (any Error)?) {
        state.withLock { $0.ended = true }
        broadcast.finish(throwing: error)
    }

    func close() async {}

    static func result(_ region: (Int64, Int64, Bool), rate: Double) -> SpeechDetector.Result {
        let range = TimeRange(
            start: MediaTime(sampleIndex: region.0, sampleRate: rate),
            end: MediaTime(sampleIndex: region.1, sampleRate: rate))
        return SpeechDetector.Result(range: range, resultsFinalizationTime: range.end, speechDetected: region.2)
    }
}
