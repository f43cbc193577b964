import AudioIO
import Foundation

/// The audio the scenarios give a real engine, as 16 kHz mono float WAV files (the samples exactly), so that a replaying
/// backend's cassettes can hold it: record these files on the platform (speech-harness-record),
/// and `conformance --engine replay:DIR` answers the scenarios from those recordings.
public enum ConformanceAudio {
    /// Writes `noise.wav` (10 s of the generated noise most scenarios stream, as a step generates
    /// it) and `speech-<digits>.wav` for each distinct list of spoken digits (the legacy and live
    /// scenarios), into `directory`; returns the paths written. Spoken digits need Debian's
    /// asterisk-core-sounds-en.
    public static func write(to directory: String, scenarios: [Scenario]) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written: [String] = []
        let noise = directory + "/noise.wav"
        try AudioFileWriter.writeMono(
            ScenarioExecution.noise(frames: 160_000), sampleRate: 16_000, to: noise, encoding: .float32)
        written.append(noise)
        let lists = Set(scenarios.compactMap(\.speech)).sorted { $0.joined(separator: " ") < $1.joined(separator: " ") }
        for words in lists {
            let path = directory + "/speech-" + words.joined(separator: "-") + ".wav"
            try AudioFileWriter.writeMono(
                try SpokenDigits(words).samples, sampleRate: 16_000, to: path, encoding: .float32)
            written.append(path)
        }
        return written
    }
}
