import AudioIO
import Foundation
import SpeechCore
import VirtualDevice

public enum AVAudioConverterInputStatus: Int, Sendable {
    case haveData = 0
    case noDataNow = 1
    case endOfStream = 2
}
public enum AVAudioConverterOutputStatus: Int, Sendable {
    case haveData = 0
    case inputRanDry = 1
    case endOfStream = 2
    case error = 3
}
/// How a converter fills its filter history. libsamplerate compensates its own filter delay, so on
/// Linux every method yields output aligned with the input; the property is kept for source compatibility.
public enum AVAudioConverterPrimeMethod: Int, Sendable {
    case pre = 0
    case normal = 1
    case none = 2
}
public typealias AVAudioConverterInputBlock = (AVAudioPacketCount, UnsafeMutablePointer<AVAudioConverterInputStatus>) ->
    AVAudioBuffer?

/// Why a conversion failed.
public enum AVAudioConverterError: Error, CustomStringConvertible, Sendable {
    case formatMismatch(String)
    case conversion(String)

    public var description: String {
        switch self {
        case .formatMismatch(let detail): return "converter format mismatch: \(detail)"
        case .conversion(let detail): return "conversion failed: \(detail)"
        }
    }
}

/// Converts PCM between rates (libsamplerate), sample types (Float32, Int16) and channel counts
/// (N→1 averages, 1→N copies).
public final class AVAudioConverter: NSObject, @unchecked Sendable {
    public let inputFormat: AVAudioFormat
    public let outputFormat: AVAudioFormat
    public var primeMethod: AVAudioConverterPrimeMethod = .normal
    /// libsamplerate quality used for rate changes.
    public var quality: SampleRateConverter.Quality = .medium {
        didSet { reset() }
    }
    private var converters: [SampleRateConverter] = []
    private var pending: [[Float]]
    /// The leases of the input whose audio `pending` holds (see `AVAudioPCMBuffer.captureLeases`).
    private var pendingLeases: [CaptureLease] = []
    private var inputEnded = false

    public init?(from fromFormat: AVAudioFormat, to toFormat: AVAudioFormat) {
        guard fromFormat.audioFormat != nil, toFormat.audioFormat != nil,
            fromFormat.channelCount == toFormat.channelCount || toFormat.channelCount == 1
                || fromFormat.channelCount == 1,
            fromFormat.sampleRate == toFormat.sampleRate
                || (try? SampleRateConverter(from: fromFormat.sampleRate, to: toFormat.sampleRate)) != nil
        else { return nil }
        inputFormat = fromFormat
        outputFormat = toFormat
        pending = Array(repeating: [], count: Int(toFormat.channelCount))
        super.init()
        reset()
    }

    /// Forgets buffered audio and filter state, ready for an unrelated stream.
    public func reset() {
        pending = Array(repeating: [], count: Int(outputFormat.channelCount))
        pendingLeases = []
        inputEnded = false
        converters =
            inputFormat.sampleRate == outputFormat.sampleRate
            ? []
            : (0..<Int(outputFormat.channelCount)).compactMap { _ in
                try? SampleRateConverter(from: inputFormat.sampleRate, to: outputFormat.sampleRate, quality: quality)
            }
    }

    /// Converts one buffer to another of the same sample rate (Apple's simple form, which does not
    /// change rates either).
    public func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws {
        guard inputFormat.sampleRate == outputFormat.sampleRate else {
            throw AVAudioConverterError.formatMismatch("use convert(to:error:withInputFrom:) to change the sample rate")
        }
        guard let pcm = inputBuffer.pcmBuffer else {
            throw AVAudioConverterError.formatMismatch("unsupported input sample type")
        }
        let mapped = mapChannels(pcm.floatChannels)
        guard mapped.first?.count ?? 0 <= Int(outputBuffer.frameCapacity) else {
            throw AVAudioConverterError.conversion(
                "output buffer holds \(outputBuffer.frameCapacity) frames, input has \(pcm.frameCount)")
        }
        outputBuffer.frameLength = 0
        try outputBuffer.replaceFrames(
            with: PCMBuffer(format: outputFormat.audioFormat!.with(type: .float32), channels: mapped), at: 0)
        outputBuffer.captureLeases = inputBuffer.captureLeases
    }

    /// Pulls input from `inputBlock` as needed and fills `outputBuffer` (up to its capacity).
    @discardableResult
    public func convert(
        to outputBuffer: AVAudioPCMBuffer, error outError: NSErrorPointer,
        withInputFrom inputBlock: AVAudioConverterInputBlock
    ) -> AVAudioConverterOutputStatus {
        outputBuffer.frameLength = 0
        outputBuffer.captureLeases = []
        let capacity = Int(outputBuffer.frameCapacity)
        var written = 0
        var status: AVAudioConverterInputStatus = .haveData
        do {
            while written < capacity {
                if !pending[0].isEmpty {
                    let take = min(capacity - written, pending[0].count)
                    let block = pending.map { Array($0[0..<take]) }
                    pending = pending.map { Array($0[take...]) }
                    try outputBuffer.replaceFrames(
                        with: PCMBuffer(format: outputFormat.audioFormat!.with(type: .float32), channels: block),
                        at: written)
                    written += take
                    // The inputs this output holds audio of (a leftover part goes with it too).
                    outputBuffer.captureLeases += pendingLeases
                    pendingLeases = []
                    continue
                }
                if inputEnded { return written > 0 ? .haveData : .endOfStream }
                let wantedInput = AVAudioPacketCount(
                    max(1, Double(capacity - written) * inputFormat.sampleRate / outputFormat.sampleRate))
                status = .haveData
                let input = withUnsafeMutablePointer(to: &status) { inputBlock(wantedInput, $0) }
                switch status {
                case .noDataNow:
                    return written > 0 ? .haveData : .inputRanDry
                case .endOfStream:
                    inputEnded = true
                    try push([[Float]](repeating: [], count: Int(inputFormat.channelCount)), end: true)
                case .haveData:
                    guard let pcmInput = input as? AVAudioPCMBuffer, let pcm = pcmInput.pcmBuffer else {
                        throw AVAudioConverterError.conversion("the input block returned no PCM buffer with data")
                    }
                    guard pcm.format.sampleRate == inputFormat.sampleRate,
                        pcm.format.channelCount == Int(inputFormat.channelCount)
                    else {
                        throw AVAudioConverterError.formatMismatch(
                            "input buffer \(pcmInput.format) is not \(inputFormat)")
                    }
                    try push(pcm.floatChannels, end: false)
                    pendingLeases += pcmInput.captureLeases
                }
            }
            return .haveData
        } catch {
            outError?.pointee = NSError(
                domain: "SpeechHarness.AVAudioConverter", code: 1,
                userInfo: [NSLocalizedDescriptionKey: "\(error)"])
            return .error
        }
    }

    private func push(_ channels: [[Float]], end: Bool) throws {
        let mapped = mapChannels(channels)
        if converters.isEmpty {
            for c in pending.indices { pending[c] += mapped[c] }
            return
        }
        for c in pending.indices { pending[c] += try converters[c].process(mapped[c], endOfInput: end) }
    }

    private func mapChannels(_ channels: [[Float]]) -> [[Float]] {
        ChannelMap.map(channels, to: Int(outputFormat.channelCount))
    }
}

extension AudioFormat {
    func with(type: SampleType) -> AudioFormat {
        var copy = self
        copy.sampleType = type
        return copy
    }
}

#if !canImport(Darwin)
    /// Foundation on Linux has no `NSErrorPointer`; `&error` on a `NSError?` variable converts to this.
    public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
#endif
