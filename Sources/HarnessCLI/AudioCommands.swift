import AudioIO
import Foundation

/// `speech-harness audio info | convert | compare`.
enum AudioCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "audio info",
            summary: "Show rate, channels, frames, duration and encoding of audio files.",
            options: [raw.spec],
            arguments: [.oneOrMore("file")],
            run: info),
        CommandSpec(
            path: "audio convert",
            summary: "Convert to mono 16-bit WAV, streaming, optionally at another sample rate.",
            options: [rate.spec, quality.spec, raw.spec],
            arguments: [ArgumentSpec(name: "input"), ArgumentSpec(name: "output.wav")],
            run: convert),
        CommandSpec(
            path: "audio compare",
            summary: "Say whether two files hold the same audio: format and samples, never metadata.",
            options: [],
            arguments: [ArgumentSpec(name: "first"), ArgumentSpec(name: "second")],
            details: """
                The same audio: the same rate, channel count and sample encoding, and the same samples \
                frame for frame. Chunks and tags (a timestamp, say) are not compared. Exit status 0 when \
                the same, 1 when they differ (the first difference is said), 2 when a file cannot be read.
                """,
            run: compare),
    ]

    static let raw = Option.text(
        "raw", value: "rate:channels:encoding",
        help: "Read headerless audio, e.g. 16000:1:s16 (encodings s8 s16 s24 s32 f32 ulaw alaw).")
    static let rate = Option.positive("rate", value: "Hz", help: "Output sample rate (default: the input's).")
    static let quality = Option.choice("quality", SampleRateConverter.Quality.self, help: "Resampler (default medium).")

    static func info(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let raw = try rawFormat(arguments, command: "audio info")
        var failed = 0
        for file in arguments.positionals {
            do {
                let info = try AudioFileReader.info(path: file, raw: raw)
                console.out(
                    String(
                        format: "%@: %@, %@ (%@), %lld frames, %.3f s", file, info.container,
                        info.format.description.replacingOccurrences(of: ", float32", with: ""),
                        info.encoding, info.frameCount, info.durationSeconds))
            } catch {
                console.err("\(error)")
                failed += 1
            }
        }
        return failed == 0 ? 0 : 1
    }

    static func convert(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let path = "audio convert"
        let raw = try rawFormat(arguments, command: path)
        let quality = arguments[Self.quality] ?? .medium
        let rate = arguments[Self.rate]
        let chunker = try AudioChunker(
            path: arguments.positionals[0], raw: raw, chunkMilliseconds: 1_000, sampleRate: rate, quality: quality)
        let writer = try AudioFileWriter(
            path: arguments.positionals[1], format: .speech(sampleRate: chunker.outputRate))
        while let chunk = try chunker.next() { try writer.write(mono: chunk.samples) }
        writer.close()
        console.out("\(arguments.positionals[1]): \(writer.framesWritten) frames at \(Int(chunker.outputRate)) Hz")
        return 0
    }

    static func compare(_ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let (first, second) = (arguments.positionals[0], arguments.positionals[1])
        do {
            guard let difference = try AudioComparison.difference(between: first, and: second) else {
                console.out("\(first) and \(second) hold the same audio")
                return 0
            }
            console.out("\(first) and \(second) differ: \(difference)")
            return 1
        } catch let error as AudioIOError {
            console.err("speech-harness audio compare: \(error)")
            return 2
        }
    }

    static func rawFormat(_ arguments: ParsedArguments, command: String) throws -> RawAudioFormat? {
        guard let text = arguments[Self.raw] else { return nil }
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count == 3, let rate = Int(parts[0]), let channels = Int(parts[1]),
            let encoding = RawAudioFormat.Encoding(rawValue: parts[2])
        else {
            throw UsageError(
                message: "--raw expects rate:channels:encoding, e.g. 16000:1:s16; got '\(text)'", command: command)
        }
        return RawAudioFormat(sampleRate: rate, channelCount: channels, encoding: encoding)
    }
}
