@_spi(Harness) import AVFAudio
import CoreMedia
import Foundation
import SpeechCore

/// SDK 27's converter: audio buffers in any PCM format become analyzer inputs in the analyzer's
/// format, with exact times (each output's start is counted in output frames, continuous across
/// calls, so converter delay never shifts the timeline).
///
/// A buffer may be held back until later audio arrives (the resampler's filter needs it); `flush()`
/// returns what is held, and belongs before the input sequence ends.
public final class AnalyzerInputConverter {
    public let analyzerFormat: AVAudioFormat
    private let configurationHandler: ((AVAudioConverter) -> Void)?
    private var converter: AVAudioConverter?
    private var inputFormat: AVAudioFormat?
    /// Output frames produced so far in the current run, and where the run started.
    private var producedFrames: Int64 = 0
    private var runStart: CMTime = .zero
    /// Input frames taken in the current run (to place a buffer given without a time).
    private var consumedInputFrames: Int64 = 0
    private var queued: [AVAudioPCMBuffer] = []

    /// A converter to `analyzerFormat`; `configurationHandler` is called on every `AVAudioConverter`
    /// made inside (one per input format, so possibly more than once), to set its quality, say.
    public init(analyzerFormat: AVAudioFormat, configurationHandler: ((AVAudioConverter) -> Void)? = nil) {
        self.analyzerFormat = analyzerFormat
        self.configurationHandler = configurationHandler
    }

    /// A converter to the best format the modules share (`SpeechAnalyzer.bestAvailableAudioFormat`).
    /// Throws `noModel` when a module's assets are not installed, `incompatibleAudioFormats` when
    /// the modules share no format.
    public static func converter(compatibleWith modules: [any SpeechModule]) async throws -> AnalyzerInputConverter {
        AnalyzerInputConverter(analyzerFormat: try await bestFormat(for: modules, considering: nil))
    }

    /// The best format the modules share (the natural one's rate and channels when they take
    /// them), or the error that says why there is none.
    static func bestFormat(
        for modules: [any SpeechModule], considering natural: AVAudioFormat?
    ) async throws
        -> AVAudioFormat
    {
        let channels = modules.compactMap { ($0 as? ModuleChannelOwner)?.moduleChannel }
        if let missing = channels.first(where: { !$0.isReady }) {
            throw SFSpeechError(.noModel, "\(missing.moduleName): assets are not installed")
        }
        guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules, considering: natural)
        else {
            throw SFSpeechError(.incompatibleAudioFormats, "the modules share no audio format")
        }
        return format
    }

    /// Converts `buffer`. `audioTime` places it on the input timeline by its sample time; nil
    /// means it follows the previous buffer (or starts at zero). A time that breaks continuity, or
    /// another input format, flushes the previous run first. The buffer may be kept until a later
    /// call: do not change or reuse it.
    public func convert(_ buffer: AVAudioBuffer, at audioTime: AVAudioTime?) throws -> [AnalyzerInput] {
        guard let pcm = buffer as? AVAudioPCMBuffer else {
            throw SFSpeechError(.unexpectedAudioFormat, "only PCM buffers are converted here, not \(type(of: buffer))")
        }
        var time: CMTime?
        if let audioTime {
            guard audioTime.isSampleTimeValid else {
                throw SFSpeechError(
                    .missingParameter, "an AVAudioTime with no sample time: audio is placed by its sample time")
            }
            time = CMTime(sampleIndex: audioTime.sampleTime, sampleRate: audioTime.sampleRate)
        }
        return try convert(pcm, startingAt: time)
    }

    /// Converts what the converter still holds (the filter's tail) and starts a new run.
    public func flush() throws -> [AnalyzerInput] {
        guard let converter else { return [] }
        var outputs = try pull(from: converter, ending: true)
        if HelperFaults.planted("converterDropsTail") { outputs = [] }
        self.converter = nil
        self.inputFormat = nil
        return outputs
    }

    /// The same with the start as a `CMTime` (the harness's own callers).
    @_spi(Harness) public func convert(_ buffer: AVAudioPCMBuffer, startingAt time: CMTime?) throws -> [AnalyzerInput] {
        let target = analyzerFormat
        var outputs: [AnalyzerInput] = []
        let expected = inputFormat.map {
            runStart + CMTime(sampleIndex: consumedInputFrames, sampleRate: $0.sampleRate)
        }
        let formatChanged = inputFormat.map { !($0 == buffer.format) } ?? true
        if formatChanged || (time != nil && expected != nil && time! != expected!) {
            outputs += try flush()
            converter = nil
            if !(buffer.format == target) {
                guard let made = AVAudioConverter(from: buffer.format, to: target) else {
                    throw SFSpeechError(.unexpectedAudioFormat, "cannot convert \(buffer.format) to \(target)")
                }
                if !HelperFaults.planted("converterSkipsHandler") { configurationHandler?(made) }
                converter = made
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

    private func pull(from converter: AVAudioConverter, ending: Bool) throws -> [AnalyzerInput] {
        let target = analyzerFormat
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
