import CSampleRate
import SpeechCore

/// Mono sample-rate conversion with libsamplerate, for whole signals or streamed blocks.
///
/// The streaming form keeps the filter state between blocks, so converting a signal in pieces gives
/// the same samples as converting it whole. Not thread-safe: one converter per stream.
public final class SampleRateConverter {
    /// libsamplerate's converters, best first.
    public enum Quality: String, Sendable, CaseIterable {
        case best, medium, fastest
        case zeroOrderHold = "zoh"
        case linear

        var converterType: Int32 {
            switch self {
            case .best: return Int32(SRC_SINC_BEST_QUALITY)
            case .medium: return Int32(SRC_SINC_MEDIUM_QUALITY)
            case .fastest: return Int32(SRC_SINC_FASTEST)
            case .zeroOrderHold: return Int32(SRC_ZERO_ORDER_HOLD)
            case .linear: return Int32(SRC_LINEAR)
            }
        }
    }

    public let inputRate: Double
    public let outputRate: Double
    public let quality: Quality
    private var state: OpaquePointer?
    private var output: [Float] = []
    private var finished = false

    public var ratio: Double { outputRate / inputRate }

    public init(from inputRate: Double, to outputRate: Double, quality: Quality = .medium) throws {
        let ratio = outputRate / inputRate
        guard inputRate > 0, outputRate > 0, ratio.isFinite, src_is_valid_ratio(ratio) != 0 else {
            throw AudioIOError.conversionFailed(
                reason: "cannot convert \(inputRate) Hz to \(outputRate) Hz (ratio limit 1/256…256)")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.quality = quality
        var error: Int32 = 0
        guard let state = src_new(quality.converterType, 1, &error) else {
            throw AudioIOError.conversionFailed(reason: String(cString: src_strerror(error)))
        }
        self.state = state
    }

    deinit { if let state { src_delete(state) } }

    /// Converts the next block of input; pass `endOfInput: true` with (or after) the last block to
    /// drain the filter. Returns what is ready, possibly nothing.
    public func process(_ input: [Float], endOfInput: Bool = false) throws -> [Float] {
        guard !finished else {
            if input.isEmpty { return [] }
            throw AudioIOError.conversionFailed(reason: "input after end of input")
        }
        var result: [Float] = []
        var offset = 0
        let capacity = Int((Double(max(input.count, 256)) * ratio).rounded(.up)) + 64
        if output.count < capacity { output = [Float](repeating: 0, count: capacity) }
        // libsamplerate may not take all input in one call, and needs repeated calls to drain.
        while true {
            let (used, written) = try input.withUnsafeBufferPointer { inBuf in
                try output.withUnsafeMutableBufferPointer { outBuf in
                    try process(UnsafeBufferPointer(rebasing: inBuf[offset...]), into: outBuf, endOfInput: endOfInput)
                }
            }
            offset += used
            result.append(contentsOf: output[0..<written])
            // The conversion wrote new samples (counted by the call), and gathering them copies them once more.
            SampleCopies.count(written, at: "resample")
            let inputLeft = offset < input.count
            if !inputLeft && (!endOfInput || written == 0) { break }
            if inputLeft && used == 0 && written == 0 { break }
        }
        if endOfInput { finished = true }
        return result
    }

    /// Converts from `input` into `output` until the input is used up or the output is full,
    /// writing the samples where they are to stay (the chunker's chunk): nothing is gathered.
    /// libsamplerate keeps what it has read but not yet written, so calls may split the input and
    /// the output anywhere and give the same samples. With `endOfInput`, a call that writes
    /// nothing into free output has drained the filter.
    public func process(
        _ input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>, endOfInput: Bool
    ) throws -> (inputUsed: Int, outputWritten: Int) {
        guard let state else { throw AudioIOError.conversionFailed(reason: "converter already released") }
        var data = SRC_DATA()
        data.data_in = input.baseAddress
        data.input_frames = input.count
        data.data_out = output.baseAddress
        data.output_frames = output.count
        data.src_ratio = ratio
        data.end_of_input = endOfInput ? 1 : 0
        let status = src_process(state, &data)
        guard status == 0 else { throw AudioIOError.conversionFailed(reason: String(cString: src_strerror(status))) }
        SampleCopies.count(Int(data.output_frames_gen), at: "resample")
        return (Int(data.input_frames_used), Int(data.output_frames_gen))
    }

    /// Converts a whole signal at once.
    public static func convert(
        _ samples: [Float], from inputRate: Double, to outputRate: Double,
        quality: Quality = .medium
    ) throws -> [Float] {
        if inputRate == outputRate { return samples }
        return try SampleRateConverter(from: inputRate, to: outputRate, quality: quality).process(
            samples, endOfInput: true)
    }
}
