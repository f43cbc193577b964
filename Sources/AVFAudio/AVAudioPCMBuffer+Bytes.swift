import CoreMedia
import Foundation

/// PCM buffers to and from bytes in Core Audio's layout (one run of interleaved frames, or one run
/// per channel one after another), as sample buffers carry them.
extension AVAudioPCMBuffer {
    /// SDK 27: a new buffer with `source`'s format, capacity, length and samples; changing one
    /// leaves the other as it was. Copies and conversions of captured audio carry its leases.
    public convenience init(copying source: AVAudioPCMBuffer) {
        self.init(pcmFormat: source.format, frameCapacity: source.frameCapacity)!
        frameLength = source.frameLength
        if let samples = source.pcmBuffer { try? replaceFrames(with: samples, at: 0) }
        carriesCapture(of: source)
    }

    /// A buffer of `frames` frames of `format`, read from `bytes`; nil when the bytes are too few or
    /// the sample type is one the stand-in does not store (Float64).
    @_spi(Harness) public convenience init?(pcmFormat format: AVAudioFormat, bytes: Data, frames: AVAudioFrameCount) {
        let sample = format.bytesPerSample
        let runs = format.isInterleaved ? 1 : Int(format.channelCount)
        let run = Int(frames) * sample * (format.isInterleaved ? Int(format.channelCount) : 1)
        guard sample > 0, bytes.count >= run * runs else { return nil }
        self.init(pcmFormat: format, frameCapacity: frames)
        frameLength = frames
        guard let targets = channelPointers() else { return nil }
        bytes.withUnsafeBytes { raw in
            for r in 0..<runs {
                UnsafeMutableRawPointer(targets[r]).copyMemory(from: raw.baseAddress! + r * run, byteCount: run)
            }
        }
    }

    /// The frames as bytes in the format's layout.
    @_spi(Harness) public var layoutBytes: Data {
        let format = self.format
        let runs = format.isInterleaved ? 1 : Int(format.channelCount)
        let run = Int(frameLength) * format.bytesPerSample * (format.isInterleaved ? Int(format.channelCount) : 1)
        guard let sources = channelPointers() else { return Data() }
        var data = Data(capacity: run * runs)
        for r in 0..<runs { data.append(Data(bytes: sources[r], count: run)) }
        return data
    }

    /// One pointer per stored run of samples.
    private func channelPointers() -> [UnsafeMutableRawPointer]? {
        let runs = format.isInterleaved ? 1 : Int(format.channelCount)
        switch format.commonFormat {
        case .pcmFormatFloat32: return floatChannelData.map { p in (0..<runs).map { UnsafeMutableRawPointer(p[$0]) } }
        case .pcmFormatInt16: return int16ChannelData.map { p in (0..<runs).map { UnsafeMutableRawPointer(p[$0]) } }
        case .pcmFormatInt32: return int32ChannelData.map { p in (0..<runs).map { UnsafeMutableRawPointer(p[$0]) } }
        default: return nil
        }
    }
}
