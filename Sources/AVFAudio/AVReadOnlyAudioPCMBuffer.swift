import Foundation
import SpeechCore
import VirtualDevice

/// SDK 27's read-only, `Sendable` PCM buffer, handed to `installAudioTap` blocks so that they may
/// pass audio across isolation domains. It holds its samples as an immutable SpeechCore buffer.
public struct AVReadOnlyAudioPCMBuffer: Sendable {
    public let format: AVAudioFormat
    private let samples: PCMBuffer?
    /// The virtual microphone's leases on this audio, passed on to mutable copies.
    private let captureLeases: [CaptureLease]

    /// Copies the valid frames of `buffer`.
    public init(copying buffer: AVAudioPCMBuffer) {
        format = buffer.format
        samples = buffer.pcmBuffer
        captureLeases = buffer.captureLeases
    }

    /// Takes `buffer` over without copying in Apple's framework; here its frames are read once,
    /// and the caller must not change the buffer afterwards either way.
    public init(unsafeRetaining buffer: sending AVAudioPCMBuffer) {
        self.init(copying: buffer)
    }

    public var frameLength: AVAudioFrameCount { AVAudioFrameCount(samples?.frameCount ?? 0) }

    /// Harness extra: the samples as a SpeechCore buffer (nil for sample types the harness does not carry).
    public var pcmBuffer: PCMBuffer? { samples }

    /// Harness extra: a mutable copy, for APIs that take `AVAudioPCMBuffer` (converters,
    /// `SFSpeechAudioBufferRecognitionRequest.append`, `AnalyzerInput`).
    public func makeMutableCopy() -> AVAudioPCMBuffer? {
        guard let samples,
            let copy = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(samples.frameCount))
        else { return nil }
        try? copy.replaceFrames(with: samples, at: 0)
        copy.captureLeases = captureLeases
        return copy
    }
}
