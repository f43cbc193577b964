import AudioIO
import Corpus
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
        var window: (offset: Double, duration: Double)?
        switch source {
        case .silence, .none:
            return .empty(sampleRate: sampleRate, channelCount: channelCount)
        case .file(let file):
            path = file
        case .utterance(let manifest, let id):
            let load = ManifestReader.load(path: manifest)
            guard let index = load.utterances.firstIndex(where: { $0.id == id }) else {
                let reason =
                    load.issues.first(where: { $0.utteranceID == id }).map { "\($0)" }
                    ?? (load.utterances.isEmpty && !load.issues.isEmpty
                        ? "\(load.issues[0])" : "no utterance with this id")
                throw .utteranceNotFound(manifest: manifest, id: id, reason: reason)
            }
            let utterance = load.utterances[index]
            path = ManifestValidator.resolve(utterance.audio, root: load.root)
            if let offset = utterance.offset { window = (offset, utterance.duration) }
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
