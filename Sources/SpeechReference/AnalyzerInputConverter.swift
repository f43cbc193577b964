@_spi(Harness) import AVFAudio
import CoreMedia
import Foundation
import SpeechCore

/// Turns buffers in any PCM format into analyzer inputs in the analyzer's format, keeping exact
/// times: each output's start time is in the output rate, continuous across calls.
///
/// A nil `analyzerFormat` (what `bestAvailableAudioFormat` gives when assets are missing) passes
/// buffers through unchanged; the analyzer will then refuse them if they do not fit.
public final class AnalyzerInputConverter: @unchecked Sendable {
    public let analyzerFormat: AVAudioFormat?
    private var converter: AVAudioConverter?
    private var inputFormat: AVAudioFormat?
    /// Output frames produced so far in the current run, and where the run started.
    private var producedFrames: Int64 = 0
    private var runStart: CMTime = .zero
    /// Input frames taken in the current run (to place a buffer given without a time).
    private var consumedInputFrames: Int64 = 0
    private var queued: [AVAudioPCMBuffer] = []

    public init(analyzerFormat: AVAudioFormat?) {
        self.analyzerFormat = analyzerFormat
    }

    /// Converts `buffer`; `time` is its start in the input timeline (nil: right after the previous
    /// buffer). A time that breaks continuity flushes the previous run first.
    public func convert(_ buffer: AVAudioPCMBuffer, at time: CMTime?) throws -> [AnalyzerInput] {
        guard let target = analyzerFormat else {
            return [AnalyzerInput(buffer: buffer, bufferStartTime: time)]
        }
        var outputs: [AnalyzerInput] = []
        let expected = inputFormat.map {
            runStart + CMTime(sampleIndex: consumedInputFrames, sampleRate: $0.sampleRate)
        }
        let formatChanged = inputFormat.map { !($0 == buffer.format) } ?? true
        if formatChanged || (time != nil && expected != nil && time! != expected!) {
            outputs += try flush()
            converter = buffer.format == target ? nil : AVAudioConverter(from: buffer.format, to: target)
            if !(buffer.format == target) && converter == nil {
                throw SFSpeechError(.unexpectedAudioFormat, "cannot convert \(buffer.format) to \(target)")
            }
            inputFormat = buffer.format
            runStart = time ?? expected ?? .zero
            producedFrames = 0
            consumedInputFrames = 0
        }
        consumedInputFrames += Int64(buffer.frameLength)
        guard let converter else {
            // Callers reuse their buffers (audio taps, file reads): hand the analyzer a copy.
            outputs.append(emit(try Self.copy(buffer)))
            return outputs
        }
        queued.append(buffer)
        outputs += try pull(from: converter, ending: false)
        return outputs
    }

    /// Converts what the converter still holds (the filter's tail) and starts a new run.
    public func flush() throws -> [AnalyzerInput] {
        guard let converter else { return [] }
        let outputs = try pull(from: converter, ending: true)
        self.converter = nil
        self.inputFormat = nil
        return outputs
    }

    private func pull(from converter: AVAudioConverter, ending: Bool) throws -> [AnalyzerInput] {
        guard let target = analyzerFormat else { return [] }
        var outputs: [AnalyzerInput] = []
        let capacity = AVAudioFrameCount(max(1, target.sampleRate / 10))
        while true {
            guard let output = AVAudioPCMBuffer(pcmFormat: target, frameCapacity: capacity) else { break }
            var error: NSError?
            let status = converter.convert(to: output, error: &error) { [self] _, status in
                if !queued.isEmpty {
                    status.pointee = .haveData
                    return queued.removeFirst()
                }
                status.pointee = ending ? .endOfStream : .noDataNow
                return nil
            }
            if let error { throw SFSpeechError(.unexpectedAudioFormat, error.localizedDescription) }
            if output.frameLength > 0 { outputs.append(emit(output)) }
            if status != .haveData || output.frameLength < capacity { break }
        }
        return outputs
    }

    static func copy(_ buffer: AVAudioPCMBuffer) throws -> AVAudioPCMBuffer {
        guard let pcm = buffer.pcmBuffer,
            let copy = AVAudioPCMBuffer(pcmFormat: buffer.format, frameCapacity: buffer.frameLength)
        else {
            throw SFSpeechError(.unexpectedAudioFormat, "cannot copy a \(buffer.format) buffer")
        }
        try copy.replaceFrames(with: pcm, at: 0)
        copy.carriesCapture(of: buffer)
        return copy
    }

    private func emit(_ buffer: AVAudioPCMBuffer) -> AnalyzerInput {
        let rate = buffer.format.sampleRate
        let start = runStart + CMTime(sampleIndex: producedFrames, sampleRate: rate)
        producedFrames += Int64(buffer.frameLength)
        return AnalyzerInput(buffer: buffer, bufferStartTime: start)
    }
}
