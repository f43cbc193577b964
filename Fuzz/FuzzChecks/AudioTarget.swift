import AudioIO
import SpeechCore

extension FuzzTarget {
    /// Audio through libsndfile: the header is read, then every frame, in the file's channels and
    /// as the bench streams it (mono chunks of 100 ms at the file's rate, and resampled to 16 kHz).
    static let audio = FuzzTarget(
        name: "audio", summary: "an audio file (any container libsndfile knows), read to its end",
        seeds: ["Tests/Fixtures/fuzz/audio/*", "/usr/share/pocketsphinx/test/data/cards/*.wav"]
    ) { bytes, scratch in
        let path = scratch.write("input.wav", bytes)
        do {
            let reader = try AudioFileReader(path: path)
            // A header may promise any length; what is read is bounded by what the file holds.
            let bound = bytes.count * 8 + 4096
            var frames = 0
            while let buffer = try reader.read(maxFrames: 4096) {
                frames += buffer.frameCount
                if frames > bound { return "read \(frames) frames from \(bytes.count) bytes" }
            }
            guard reader.info.format.channelCount <= 2 else { return nil }
            let chunker = try AudioChunker(path: path, chunkMilliseconds: 100)
            var streamed = 0
            while let chunk = try chunker.next() {
                streamed += chunk.samples.count
                if streamed > bound { return "streamed \(streamed) samples from \(bytes.count) bytes" }
            }
            guard streamed == frames else { return "streamed \(streamed) samples of \(frames) frames" }
            // And resampled to 16 kHz, as the bench gives most engines their audio.
            let resampling = try AudioChunker(path: path, chunkMilliseconds: 100, sampleRate: 16_000)
            var resampled = 0
            while let chunk = try resampling.next() {
                resampled += chunk.samples.count
                if resampled > bound * 256 { return "resampled \(resampled) samples from \(bytes.count) bytes" }
            }
            return nil
        } catch let error as AudioIOError {
            return naming(path, error)
        } catch {
            return "an untyped error: \(error)"
        }
    }
}
