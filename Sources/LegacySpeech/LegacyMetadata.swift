import DSP
import Foundation
import SpeechCore

/// One voice measure, frame by frame.
public final class SFAcousticFeature: NSObject, @unchecked Sendable {
    /// One value per frame of `frameDuration` seconds.
    public let acousticFeatureValuePerFrame: [Double]
    public let frameDuration: TimeInterval

    public init(acousticFeatureValuePerFrame: [Double], frameDuration: TimeInterval) {
        self.acousticFeatureValuePerFrame = acousticFeatureValuePerFrame
        self.frameDuration = frameDuration
    }
}

/// Voice measures of a stretch of audio, measured by the DSP front end (`VoiceAnalyzer`:
/// 10 ms frames). Apple states the units of jitter (percent) and shimmer (dB) but not how it
/// normalises pitch; here `pitch` is the natural log of the fundamental frequency in Hz, and 0
/// where a frame is not voiced.
public final class SFVoiceAnalytics: NSObject, @unchecked Sendable {
    public let jitter: SFAcousticFeature
    public let shimmer: SFAcousticFeature
    public let pitch: SFAcousticFeature
    public let voicing: SFAcousticFeature

    init(frames: ArraySlice<VoiceFrame>) {
        let step = VoiceAnalyzer.frameDuration
        jitter = SFAcousticFeature(acousticFeatureValuePerFrame: frames.map(\.jitterPercent), frameDuration: step)
        shimmer = SFAcousticFeature(acousticFeatureValuePerFrame: frames.map(\.shimmerDecibels), frameDuration: step)
        pitch = SFAcousticFeature(
            acousticFeatureValuePerFrame: frames.map { $0.pitchHz > 0 ? log($0.pitchHz) : 0 }, frameDuration: step)
        voicing = SFAcousticFeature(acousticFeatureValuePerFrame: frames.map(\.voicing), frameDuration: step)
    }
}

/// What the legacy framework tells about the speech of a final result: rate and pauses from the
/// recognised words' times, voice analytics from the audio.
public final class SFSpeechRecognitionMetadata: NSObject, @unchecked Sendable {
    /// Words per minute over the speech (first word's start to last word's end).
    public let speakingRate: Double
    /// Mean gap between consecutive words, in seconds (0 with fewer than two words).
    public let averagePauseDuration: TimeInterval
    /// Start of the first word, seconds from the start of the audio.
    public let speechStartTimestamp: TimeInterval
    /// First word's start to last word's end, in seconds.
    public let speechDuration: TimeInterval
    private let analysis: VoiceAnalysisSource?
    private let analyticsCache = Locked<SFVoiceAnalytics??>(nil)

    init(words: [(start: Double, end: Double)], analysis: VoiceAnalysisSource?) {
        let start = words.first?.start ?? 0, end = words.last?.end ?? 0
        speechStartTimestamp = start
        speechDuration = max(0, end - start)
        speakingRate = speechDuration > 0 ? Double(words.count) / speechDuration * 60 : 0
        let gaps = zip(words.dropFirst(), words).map { max(0, $0.start - $1.end) }
        averagePauseDuration = gaps.isEmpty ? 0 : gaps.reduce(0, +) / Double(gaps.count)
        self.analysis = analysis
    }

    /// Measured over the speech (`speechStartTimestamp` for `speechDuration`) when first read.
    public var voiceAnalytics: SFVoiceAnalytics? {
        analyticsCache.withLock { cached in
            if let cached { return cached }
            let value = analysis.map { $0.analytics(from: speechStartTimestamp, duration: speechDuration) }
            cached = .some(value)
            return value
        }
    }
}

/// The audio of a recognition request, kept to measure voice analytics on demand (mono, at the
/// engine's rate).
final class VoiceAnalysisSource: @unchecked Sendable {
    let samples: [Float]
    let sampleRate: Double
    private let frames = Locked<[VoiceFrame]?>(nil)

    init(samples: [Float], sampleRate: Double) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// The frames whose windows start within [start, start + duration).
    func analytics(from start: Double, duration: Double) -> SFVoiceAnalytics {
        let all = frames.withLock { frames -> [VoiceFrame] in
            if let frames { return frames }
            var analyzer = VoiceAnalyzer(sampleRate: sampleRate)
            analyzer.append(samples)
            frames = analyzer.frames
            return analyzer.frames
        }
        let first = max(0, min(all.count, Int((start / VoiceAnalyzer.frameDuration).rounded(.down))))
        let last = max(first, min(all.count, Int(((start + duration) / VoiceAnalyzer.frameDuration).rounded(.up))))
        return SFVoiceAnalytics(frames: all[first..<last])
    }
}
