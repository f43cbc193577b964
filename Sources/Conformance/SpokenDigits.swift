import AudioIO
import EngineCore
import Foundation
import Records
import SpeechCore

/// Real speech for scenarios that need words a real engine can hear: Allison's isolated digits
/// (Debian's asterisk-core-sounds-en), 0.3 s apart, at 16 kHz, with their exact word times.
struct SpokenDigits {
    static let directory = "/usr/share/asterisk/sounds/en_US_f_Allison/digits"
    static let names = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

    let samples: [Float]
    let words: [EngineScript.Word]

    init(_ spoken: [String]) throws {
        var samples = [Float](repeating: 0, count: 4_800)
        var words: [EngineScript.Word] = []
        for word in spoken {
            guard let digit = Self.names.firstIndex(of: word) else {
                throw EngineError.invalidScript(path: "speech", reason: "'\(word)' is not a digit name")
            }
            let clip = try AudioFileReader.readMono(path: "\(Self.directory)/\(digit).wav")
            let audio =
                try clip.sampleRate == 16_000
                ? clip.samples : SampleRateConverter.convert(clip.samples, from: clip.sampleRate, to: 16_000)
            let start = Double(samples.count) / 16_000
            samples += audio
            words.append(EngineScript.Word(word, start: start, end: Double(samples.count) / 16_000))
            samples += [Float](repeating: 0, count: 4_800)
        }
        self.samples = samples + [Float](repeating: 0, count: 8_000)
        self.words = words
    }
}

extension SpokenDigits {
    /// `body` with the speech written to a WAV file (at `sampleRate`, resampled from 16 kHz, as
    /// float samples when resampled) in a folder of its own, removed afterwards.
    func asFile(sampleRate: Double, _ body: (String) async -> ScenarioOutcome) async -> ScenarioOutcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("speech-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("speech.wav").path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if sampleRate == 16_000 {
                try AudioFileWriter.writeMono(samples, sampleRate: 16_000, to: path)
            } else {
                try AudioFileWriter.writeMono(
                    SampleRateConverter.convert(samples, from: 16_000, to: sampleRate), sampleRate: sampleRate,
                    to: path, encoding: .float32)
            }
        } catch {
            return .error("writing the speech to \(path): \(error)")
        }
        return await body(path)
    }
}
