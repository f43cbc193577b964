import AVFAudio
import AudioIO
import CoreMedia
import SpeechCore
@_spi(Harness) import SpeechReference

/// An utterance's chunks as one input sequence, as an app's capture gives them. The analyzer asks
/// for the next buffer only once it has analysed the last, so each pull first accounts for the
/// buffer before it: its engine compute, the virtual clock, the results it brought. Under real-time
/// pacing a pull waits until the chunk's audio has arrived.
struct PacedChunks: AsyncSequence, Sendable {
    typealias Element = AnalyzerInput
    let pacer: ChunkPacer

    struct AsyncIterator: AsyncIteratorProtocol {
        let pacer: ChunkPacer
        func next() async throws -> AnalyzerInput? { try await pacer.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pacer: pacer) }
}

/// What the stream of one utterance has cost and reached so far. Used by one reader at a time: the
/// analyzer's pulls, then the run once the sequence has ended.
final class ChunkPacer: @unchecked Sendable {
    let chunker: AudioChunker
    let pacing: Pacing
    let format: AVAudioFormat
    let meter: ComputeMeter
    let clock = ContinuousClock()
    let wallStart: ContinuousClock.Instant
    /// Called after each buffer's analysis with the virtual time its results appeared at.
    let collect: (Double) -> Void
    let probe: UtteranceRun.Probe?

    private(set) var virtualNow = 0.0
    private(set) var compute = 0.0
    private(set) var wall = 0.0
    private(set) var audioEnd = 0.0
    private(set) var endTime = CMTime.zero
    /// Why the file could not be read on: the sequence ends there, and the run fails with it.
    private(set) var failure: (any Error)?
    /// When the last buffer was handed to the analyzer, and the engine's CPU time then.
    private var handed: (at: ContinuousClock.Instant, cpu: Double)?

    init(
        chunker: AudioChunker, pacing: Pacing, format: AVAudioFormat, meter: ComputeMeter,
        wallStart: ContinuousClock.Instant, collect: @escaping (Double) -> Void, probe: UtteranceRun.Probe?
    ) {
        self.chunker = chunker
        self.pacing = pacing
        self.format = format
        self.meter = meter
        self.wallStart = wallStart
        self.collect = collect
        self.probe = probe
    }

    func next() async throws -> AnalyzerInput? {
        if let handed {
            self.handed = nil
            await account(since: handed.at, cpu: handed.cpu)
        }
        let chunk: AudioChunk
        do {
            guard let next = try chunker.next() else { return nil }
            chunk = next
        } catch {
            failure = error
            return nil
        }
        endTime = chunk.startTime + chunk.duration
        audioEnd = endTime.seconds
        if pacing == .realtime {
            let due = wallStart.advanced(by: .nanoseconds(Int64(audioEnd * 1e9)))
            if clock.now < due { try await clock.sleep(until: due, tolerance: nil) }
        }
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(chunk.samples.count))!
        try buffer.replaceFrames(with: chunk.buffer, at: 0)
        handed = (clock.now, meter.reading.engineCPU)
        return AnalyzerInput(buffer: buffer, bufferStartTime: chunk.startTime)
    }

    /// Once the input has ended: the finalisation's compute, timed like a buffer's.
    func finalize(_ body: () async throws -> Void) async rethrows {
        let start = clock.now, before = meter.reading.engineCPU
        try await body()
        await account(since: start, cpu: before)
    }

    /// When the input ended, on the run's clock: the drain is counted from this moment.
    var inputEndedAt: Double {
        pacing == .simulated ? max(virtualNow, audioEnd) : wallStart.duration(to: clock.now).seconds
    }

    /// Counts the work done since `start` (when the engine's CPU time was `cpu`): its compute and
    /// wall time, the clock it moves, the results it brought. Simulated pacing: work starts when
    /// the audio so far has arrived and the engine is free, and takes the engine's compute. Real
    /// time: the wall clock.
    private func account(since start: ContinuousClock.Instant, cpu: Double) async {
        let spent = meter.reading.engineCPU - cpu
        compute += spent
        wall += start.duration(to: clock.now).seconds
        virtualNow =
            pacing == .simulated ? max(virtualNow, audioEnd) + spent : wallStart.duration(to: clock.now).seconds
        collect(virtualNow)
        await probe?(audioEnd, compute)
    }
}
