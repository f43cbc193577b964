import AVFAudio
import CoreMedia
import Foundation
import SpeechCore

/// An audio file as analyzer input: chunks of the file, converted to `format` when given, each
/// with the exact time of its first sample in the output rate.
struct AudioFileInputSequence: AsyncSequence, Sendable {
    typealias Element = AnalyzerInput
    let file: AVAudioFile
    let format: AVAudioFormat
    let chunkFrames: AVAudioFrameCount

    init(file: AVAudioFile, format: AVAudioFormat?, chunkSeconds: Double = 0.1) throws {
        self.file = file
        self.format = format ?? file.processingFormat
        self.chunkFrames = AVAudioFrameCount(Swift.max(1, (self.format.sampleRate * chunkSeconds).rounded()))
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let file: AVAudioFile
        let format: AVAudioFormat
        let chunkFrames: AVAudioFrameCount
        let converter: AVAudioConverter?
        var position: Int64 = 0
        var ended = false

        mutating func next() async throws -> AnalyzerInput? {
            guard !ended else { return nil }
            guard let output = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: chunkFrames) else { return nil }
            if let converter {
                var error: NSError?
                let file = self.file
                let source = file.processingFormat
                let status = converter.convert(to: output, error: &error) { packets, status in
                    guard let input = AVAudioPCMBuffer(pcmFormat: source, frameCapacity: Swift.max(packets, 1024))
                    else {
                        status.pointee = .endOfStream
                        return nil
                    }
                    do { try file.read(into: input) } catch {
                        status.pointee = .endOfStream
                        return nil
                    }
                    status.pointee = input.frameLength == 0 ? .endOfStream : .haveData
                    return input.frameLength == 0 ? nil : input
                }
                if let error { throw error }
                if status == .error { throw SFSpeechError(.audioReadFailed, "\(file.url.path): conversion failed") }
            } else {
                try file.read(into: output, frameCount: chunkFrames)
            }
            guard output.frameLength > 0 else {
                ended = true
                return nil
            }
            let start = CMTime(value: position, timescale: CMTimeScale(format.sampleRate))
            position += Int64(output.frameLength)
            return AnalyzerInput(buffer: output, bufferStartTime: start)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        let needsConversion = !(file.processingFormat == format)
        return AsyncIterator(
            file: file, format: format, chunkFrames: chunkFrames,
            converter: needsConversion ? AVAudioConverter(from: file.processingFormat, to: format) : nil)
    }
}
