import AudioIO
import SpeechCore

extension FuzzTarget {
    /// Audio through libsndfile: the header is read, then every frame, as the bench reads a file.
    static let audio = FuzzTarget(
        name: "audio", summary: "an audio file (any container libsndfile knows), read to its end",
        seeds: ["Tests/Fixtures/fuzz/audio/*", "/usr/share/pocketsphinx/test/data/cards/*.wav"]
    ) { bytes, scratch in
        let path = scratch.write("input.wav", bytes)
        do {
            let reader = try AudioFileReader(path: path)
            var frames = 0
            // A header may promise any length; what is read is bounded by what the file holds.
            while let buffer = try reader.read(maxFrames: 4096) {
                frames += buffer.frameCount
                if frames > bytes.count * 8 + 4096 {
                    return "read \(frames) frames from \(bytes.count) bytes"
                }
            }
            return nil
        } catch let error as AudioIOError {
            return naming(path, error)
        } catch {
            return "an untyped error: \(error)"
        }
    }
}
