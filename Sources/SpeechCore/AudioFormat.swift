/// The shape of PCM audio: rate, channels, sample type and layout.
public struct AudioFormat: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum SampleType: String, Sendable, Hashable, Codable {
        case float32, int16
    }

    public var sampleRate: Double
    public var channelCount: Int
    public var sampleType: SampleType
    /// Whether samples of different channels alternate in memory when the audio is exchanged.
    public var isInterleaved: Bool

    public init(sampleRate: Double, channelCount: Int, sampleType: SampleType = .float32, isInterleaved: Bool = false) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.sampleType = sampleType
        self.isInterleaved = isInterleaved
    }

    /// Mono Float32 at `sampleRate`: what speech engines consume.
    public static func speech(sampleRate: Double) -> AudioFormat {
        AudioFormat(sampleRate: sampleRate, channelCount: 1)
    }

    public var isValid: Bool { sampleRate > 0 && sampleRate.isFinite && channelCount > 0 }

    public var description: String {
        let rate = sampleRate.rounded() == sampleRate ? String(Int(sampleRate)) : String(sampleRate)
        return "\(rate) Hz, \(channelCount) ch, \(sampleType.rawValue)\(isInterleaved ? ", interleaved" : "")"
    }
}
