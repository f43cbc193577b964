import AudioIO
import Foundation
import SpeechCore

/// Why the virtual microphone cannot play its source.
public enum MicrophoneError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The audio file (or the manifest's audio) cannot be read or converted.
    case unreadableSource(path: String, reason: String)
    /// The manifest cannot be read, or has no usable line with that id.
    case utteranceNotFound(manifest: String, id: String, reason: String)

    public var description: String {
        switch self {
        case .unreadableSource(let path, let reason): return "\(path): the virtual microphone cannot play it: \(reason)"
        case .utteranceNotFound(let manifest, let id, let reason): return "\(manifest)#\(id): \(reason)"
        }
    }
}

/// Where one corpus utterance's audio is: a file, and the window of it when the utterance is a
/// segment of a longer recording.
public struct UtteranceAudio: Sendable, Hashable {
    /// A stretch of a longer recording, in seconds from its start.
    public struct Segment: Sendable, Hashable {
        public var offset: Double
        public var duration: Double

        public init(offset: Double, duration: Double) {
            self.offset = offset
            self.duration = duration
        }
    }

    public var path: String
    /// The utterance's stretch of the file; nil when it is the whole file.
    public var segment: Segment?

    public init(path: String, segment: Segment? = nil) {
        self.path = path
        self.segment = segment
    }

    /// Finds the audio of manifest line `id`; the program's composition point installs the corpus
    /// reader, so the virtual device does not depend on it.
    public typealias Resolver = @Sendable (_ manifest: String, _ id: String) throws(MicrophoneError) -> UtteranceAudio

    private static let installed = Locked<Resolver?>(nil)

    /// Makes `resolver` the one `manifest.jsonl#id` microphone sources go through.
    public static func install(_ resolver: @escaping Resolver) {
        installed.withLock { $0 = resolver }
    }

    static func resolve(manifest: String, id: String) throws(MicrophoneError) -> UtteranceAudio {
        ProgramComposition.load()
        guard let resolver = installed.withLock({ $0 }) else {
            throw .utteranceNotFound(
                manifest: manifest, id: id,
                reason: "this program has no corpus reader (link the Speech or SpeechHarnessTesting product)")
        }
        return try resolver(manifest, id)
    }
}

/// What the virtual microphone hears, already in its hardware format (rate and channel count),
/// the way a real microphone would pick up a recording played next to it.
public struct MicrophoneRecording: Sendable {
    /// One array per hardware channel, all of `frameCount` samples.
    public let channels: [[Float]]
    public let sampleRate: Double

    public var frameCount: Int { channels.first?.count ?? 0 }

    public init(channels: [[Float]], sampleRate: Double) {
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// Nothing to play (the `silence` and `none` sources).
    public static func empty(sampleRate: Double, channelCount: Int) -> MicrophoneRecording {
        MicrophoneRecording(channels: Array(repeating: [], count: channelCount), sampleRate: sampleRate)
    }

    /// Reads `source` and brings it to the hardware rate (libsamplerate) and channel count
    /// (channels averaged to mono, or mono copied to every channel).
    public static func load(
        _ source: MicrophoneSettings.Source, sampleRate: Double, channelCount: Int
    ) throws(MicrophoneError) -> MicrophoneRecording {
        let path: String
        var window: UtteranceAudio.Segment?
        switch source {
        case .silence, .none:
            return .empty(sampleRate: sampleRate, channelCount: channelCount)
        case .file(let file):
            path = file
        case .utterance(let manifest, let id):
            let audio = try UtteranceAudio.resolve(manifest: manifest, id: id)
            path = audio.path
            window = audio.segment
        }
        do {
            let reader = try AudioFileReader(path: path)
            let fileRate = reader.info.format.sampleRate
            var fileChannels = Array(repeating: [Float](), count: reader.info.format.channelCount)
            while let block = try reader.read(maxFrames: 65_536) {
                for (c, samples) in block.floatChannels.enumerated() { fileChannels[c] += samples }
            }
            if let window {
                let first = min(fileChannels[0].count, Int((window.offset * fileRate).rounded()))
                let last = min(fileChannels[0].count, first + Int((window.duration * fileRate).rounded()))
                fileChannels = fileChannels.map { Array($0[first..<last]) }
            }
            let mapped = ChannelMap.map(fileChannels, to: channelCount)
            let resampled =
                try fileRate == sampleRate
                ? mapped
                : mapped.map { try SampleRateConverter.convert($0, from: fileRate, to: sampleRate) }
            return MicrophoneRecording(channels: resampled, sampleRate: sampleRate)
        } catch {
            throw .unreadableSource(path: path, reason: "\(error)")
        }
    }

    /// Samples `range` of every channel; silence past the end of the recording.
    public func frames(_ range: Range<Int>) -> [[Float]] {
        channels.map { samples in
            let available = range.clamped(to: 0..<samples.count)
            var out = Array(samples[available])
            if out.count < range.count { out += [Float](repeating: 0, count: range.count - out.count) }
            return out
        }
    }
}
