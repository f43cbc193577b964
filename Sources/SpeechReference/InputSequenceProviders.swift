import AVFAudio
import CoreMedia
import Foundation
import SpeechCore

/// Analyzer input from an audio file, converted to the analyzer's format, as fast as it can be read.
public final class AssetInputSequenceProvider: @unchecked Sendable {
    public let file: AVAudioFile
    public let analyzerFormat: AVAudioFormat?

    public init(url: URL, analyzerFormat: AVAudioFormat?) throws {
        self.file = try AVAudioFile(forReading: url)
        self.analyzerFormat = analyzerFormat
    }

    /// The file's audio as timed inputs (100 ms each).
    public var analyzerInputs: some AsyncSequence<AnalyzerInput, any Error> & Sendable {
        get throws { try AudioFileInputSequence(file: file, format: analyzerFormat) }
    }
}

/// Analyzer input from a live source. On Linux there is no microphone; a file played at real speed
/// stands in for one: each chunk becomes available when its last sample would have been recorded,
/// by the given clock (a `VirtualClock` in tests, the continuous clock for live pacing).
public final class CaptureInputSequenceProvider<C: Clock>: @unchecked Sendable where C.Duration == Duration {
    public let file: AVAudioFile
    public let analyzerFormat: AVAudioFormat?
    public let chunkDuration: Duration
    let clock: C

    public init(
        pacedFile url: URL, analyzerFormat: AVAudioFormat?, chunkDuration: Duration = .milliseconds(100), clock: C
    ) throws {
        self.file = try AVAudioFile(forReading: url)
        self.analyzerFormat = analyzerFormat
        self.chunkDuration = chunkDuration
        self.clock = clock
    }

    /// Timed inputs released at the pace of real time.
    public var analyzerInputs: AsyncThrowingStream<AnalyzerInput, any Error> {
        let chunkSeconds = chunkDuration.seconds
        let source: AudioFileInputSequence
        do {
            source = try AudioFileInputSequence(file: file, format: analyzerFormat, chunkSeconds: chunkSeconds)
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        let clock = self.clock
        return AsyncThrowingStream { continuation in
            let task = Task {
                let start = clock.now
                do {
                    for try await input in source {
                        let end =
                            (input.bufferStartTime ?? .zero)
                            + CMTime(
                                sampleIndex: Int64(input.storedBuffer.frameLength),
                                sampleRate: input.storedBuffer.format.sampleRate
                            )
                        try await clock.sleep(
                            until: start.advanced(by: .nanoseconds(Int64((end.seconds * 1e9).rounded()))),
                            tolerance: nil)
                        continuation.yield(input)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension CaptureInputSequenceProvider where C == ContinuousClock {
    /// A file played at real speed on the continuous clock.
    public convenience init(
        pacedFile url: URL, analyzerFormat: AVAudioFormat?, chunkDuration: Duration = .milliseconds(100)
    ) throws {
        try self.init(
            pacedFile: url, analyzerFormat: analyzerFormat, chunkDuration: chunkDuration, clock: ContinuousClock())
    }
}
