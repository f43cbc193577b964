import AudioIO
import Foundation

/// `speech-harness bench …`: measurements that are goals, not tests.
enum BenchCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "bench stream-io", synopsis: "<file> [options]",
            summary: "Stream a file from disk in fixed chunks; report throughput and peak memory.",
            options: [
                OptionSpec(name: "chunk-ms", value: "ms", help: "Chunk duration (default 100)."),
                OptionSpec(name: "rate", value: "Hz", help: "Resample to this rate while streaming."),
                OptionSpec(name: "quality", value: "best|medium|fastest|zoh|linear", help: "Resampler (default medium)."),
            ],
            positionals: 1...1,
            details: "Peak RSS is the process's high-water mark (VmHWM), so it includes the tool itself."),
    ]

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let chunkMS = try arguments.int("chunk-ms", default: 100, in: 1...60_000, command: path)
        let rate = try arguments.double("rate", command: path)
        let quality = try SampleRateConverter.Quality(rawValue: arguments.value("quality") ?? "medium")
            ?? { throw UsageError(message: "unknown --quality '\(arguments.value("quality")!)'", command: path) }()
        let file = arguments.positionals[0]
        let clock = ContinuousClock()
        let started = clock.now
        let chunker = try AudioChunker(path: file, chunkMilliseconds: chunkMS, sampleRate: rate, quality: quality)
        var chunks = 0, frames: Int64 = 0
        var energy = 0.0
        while let chunk = try chunker.next() {
            chunks += 1
            frames += Int64(chunk.samples.count)
            for x in chunk.samples { energy += Double(x * x) }
        }
        let elapsed = started.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let audioSeconds = Double(frames) / chunker.outputRate
        console.out(String(format: "file: %@\naudio: %.1f s at %d Hz in %d chunks of %d ms\nwall: %.3f s (%.0fx real time)\npeak RSS: %.1f MB\nrms: %.6f",
                           file, audioSeconds, Int(chunker.outputRate), chunks, chunkMS, seconds,
                           audioSeconds / max(seconds, 1e-9), Double(ProcessMemory.peakResidentBytes() ?? 0) / 1_048_576,
                           (energy / Double(max(frames, 1))).squareRoot()))
        return 0
    }
}

/// Memory figures of this process, from `/proc/self/status`.
enum ProcessMemory {
    /// Peak resident set size (VmHWM) in bytes; nil where /proc is not available.
    static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]
            return Int(kilobytes).map { $0 * 1024 }
        }
        return nil
    }
}
