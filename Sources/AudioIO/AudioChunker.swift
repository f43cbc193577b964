import SpeechCore

/// One piece of a streamed file: mono Float32 samples and the exact time of its first sample.
public struct AudioChunk: Sendable, Hashable {
    /// Index of the first sample in the output stream (after any resampling).
    public var startFrame: Int64
    /// `startFrame` as time, exact in the output rate's timescale.
    public var startTime: MediaTime
    public var samples: [Float]
    public var sampleRate: Double

    public var duration: MediaTime { MediaTime(sampleIndex: Int64(samples.count), sampleRate: sampleRate) }
    public var buffer: PCMBuffer { PCMBuffer(mono: samples, sampleRate: sampleRate) }
}

/// Streams a file from disk as mono chunks of a fixed duration, optionally resampled, holding only
/// one read block and one chunk in memory.
///
/// Chunk `k` covers output frames `⌊k·d·r⌉ ..< ⌊(k+1)·d·r⌉` (d the chunk duration, r the output rate),
/// so chunk start times are exact and never drift even when `d·r` is not a whole number of samples.
public final class AudioChunker {
    public let reader: AudioFileReader
    public let chunkMilliseconds: Int
    public let outputRate: Double
    private let converter: SampleRateConverter?
    private let readBlock: Int
    private var pending: [Float] = []
    private var pendingStart: Int64 = 0
    private var chunkIndex: Int64 = 0
    private var inputDone = false
    private var framesRead: Int64 = 0

    /// - Parameters:
    ///   - chunkMilliseconds: duration of every chunk but possibly the last.
    ///   - sampleRate: output rate; nil keeps the file's rate.
    ///   - quality: libsamplerate converter used when resampling.
    public init(
        path: String, raw: RawAudioFormat? = nil, chunkMilliseconds: Int, sampleRate: Double? = nil,
        quality: SampleRateConverter.Quality = .medium
    ) throws {
        precondition(chunkMilliseconds > 0, "chunk duration must be positive")
        reader = try AudioFileReader(path: path, raw: raw)
        if reader.info.format.channelCount > 2 {
            throw AudioIOError.unsupportedChannelLayout(path: path, channels: reader.info.format.channelCount)
        }
        self.chunkMilliseconds = chunkMilliseconds
        let inputRate = reader.info.format.sampleRate
        outputRate = sampleRate ?? inputRate
        do {
            converter =
                outputRate == inputRate
                ? nil : try SampleRateConverter(from: inputRate, to: outputRate, quality: quality)
        } catch AudioIOError.conversionFailed(let reason) {
            throw AudioIOError.invalidFormat(path: path, reason: reason)
        }
        readBlock = max(1024, Int(inputRate * Double(chunkMilliseconds) / 1000))
    }

    /// First output frame of chunk `k`.
    private func boundary(_ k: Int64) -> Int64 {
        // k·ms·rate/1000, rounded half away from zero, computed without floating-point drift.
        if outputRate.rounded() == outputRate, outputRate < 1e9 {
            let numerator = k * Int64(chunkMilliseconds) * Int64(outputRate)
            return (numerator + 500) / 1000
        }
        return Int64((Double(k) * Double(chunkMilliseconds) * outputRate / 1000).rounded())
    }

    /// The next chunk, or nil after the last one.
    public func next() throws -> AudioChunk? {
        let start = boundary(chunkIndex)
        let end = boundary(chunkIndex + 1)
        let wanted = Int(end - start)
        while pending.count < wanted && !inputDone {
            try fill()
        }
        guard !pending.isEmpty else { return nil }
        let take = min(wanted, pending.count)
        let samples = Array(pending[0..<take])
        pending.removeFirst(take)
        let chunk = AudioChunk(
            startFrame: pendingStart, startTime: MediaTime(sampleIndex: pendingStart, sampleRate: outputRate),
            samples: samples, sampleRate: outputRate)
        pendingStart += Int64(take)
        chunkIndex += 1
        return chunk
    }

    private func fill() throws {
        let block = try reader.readMono(maxFrames: readBlock)
        if block == nil { inputDone = true }
        let input = block ?? []
        // NaN or ±Inf would poison every engine and resampler downstream: stop at the first one.
        if let bad = input.firstIndex(where: { !$0.isFinite }) {
            throw AudioIOError.nonFiniteSamples(path: reader.path, frame: framesRead + Int64(bad))
        }
        framesRead += Int64(input.count)
        if let converter {
            pending.append(contentsOf: try converter.process(input, endOfInput: inputDone))
        } else {
            pending.append(contentsOf: input)
        }
    }
}
