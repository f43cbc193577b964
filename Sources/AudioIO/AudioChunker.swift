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
/// one read block and one chunk in memory. Without resampling each chunk is one read, decoded
/// straight into the chunk's samples; with it, the converter writes straight into the chunk's
/// samples from the decoded block.
///
/// Chunk `k` covers output frames `⌊k·d·r⌉ ..< ⌊(k+1)·d·r⌉` (d the chunk duration, r the output rate),
/// so chunk start times are exact and never drift even when `d·r` is not a whole number of samples.
public final class AudioChunker {
    public let reader: AudioFileReader
    public let chunkMilliseconds: Int
    public let outputRate: Double
    private let converter: SampleRateConverter?
    private let readBlock: Int
    /// The decoded block being resampled, and how much of it the converter has taken.
    private var block: [Float] = []
    private var blockUsed = 0
    /// Whether the converter has given its last sample.
    private var drained = false
    private var pendingStart: Int64 = 0
    private var chunkIndex: Int64 = 0
    private var inputDone = false
    private var framesRead: Int64 = 0

    /// - Parameters:
    ///   - path: the audio file.
    ///   - raw: the format of a headerless file; nil for files with a header.
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
        readBlock = min(Self.largestRead, max(1024, Int(inputRate * Double(chunkMilliseconds) / 1000)))
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
        // At a rate so low that a chunk is shorter than a sample, some chunks hold none: skip them.
        while boundary(chunkIndex + 1) == boundary(chunkIndex) { chunkIndex += 1 }
        let wanted = Int(boundary(chunkIndex + 1) - boundary(chunkIndex))
        let samples: [Float]
        if converter == nil {
            samples = try read(wanted)
        } else {
            samples = try resampled(wanted)
        }
        guard !samples.isEmpty else { return nil }
        let chunk = AudioChunk(
            startFrame: pendingStart, startTime: MediaTime(sampleIndex: pendingStart, sampleRate: outputRate),
            samples: samples, sampleRate: outputRate)
        pendingStart += Int64(samples.count)
        chunkIndex += 1
        return chunk
    }

    /// The most frames asked of libsndfile at once: a header may claim any rate, and memory is
    /// taken for what is asked, not for what the file holds.
    static let largestRead = 1 << 16

    /// Up to `count` samples read from the file as they are (fewer only at its end).
    private func read(_ count: Int) throws -> [Float] {
        guard !inputDone else { return [] }
        var samples = try checked(reader.readMono(maxFrames: min(count, Self.largestRead))) ?? []
        while samples.count < count,
            let more = try checked(reader.readMono(maxFrames: min(count - samples.count, Self.largestRead)))
        {
            samples += more
            SampleCopies.count(more.count, at: "chunk")
        }
        if samples.count < count { inputDone = true }
        return samples
    }

    /// Up to `count` resampled samples (fewer only at the end), which the converter writes straight
    /// into the chunk's storage, reading blocks of the file as it needs them.
    private func resampled(_ count: Int) throws -> [Float] {
        guard let converter else { return [] }
        return try [Float](unsafeUninitializedCapacity: count) { chunk, filled in
            filled = 0
            while filled < count && !drained {
                if blockUsed == block.count && !inputDone {
                    block = try checked(reader.readMono(maxFrames: readBlock)) ?? []
                    blockUsed = 0
                }
                let (used, written) = try block.withUnsafeBufferPointer { input in
                    try converter.process(
                        UnsafeBufferPointer(rebasing: input[blockUsed...]),
                        into: UnsafeMutableBufferPointer(rebasing: chunk[filled...]), endOfInput: inputDone)
                }
                blockUsed += used
                filled += written
                if written == 0 && used == 0 {
                    // Nothing moved: at the end the filter is drained; before it, the block is used up.
                    if inputDone { drained = true } else if blockUsed < block.count { break }
                }
            }
        }
    }

    /// `block`, counted, unless it holds NaN or ±Inf, which would poison every engine and resampler
    /// downstream: reading stops at the first one.
    private func checked(_ block: [Float]?) throws -> [Float]? {
        guard let block else {
            inputDone = true
            return nil
        }
        if let bad = block.firstIndex(where: { !$0.isFinite }) {
            throw AudioIOError.nonFiniteSamples(path: reader.path, frame: framesRead + Int64(bad))
        }
        framesRead += Int64(block.count)
        return block
    }
}
