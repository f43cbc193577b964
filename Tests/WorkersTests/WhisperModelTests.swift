import AudioIO
import Foundation
import Metrics
import SpeechCore
import Testing

@testable import Workers

/// Whisper's models as settings of the worker engine: names, absence, and the multilingual model
/// hearing each corpus language in the language of the session's locale.
@Suite("Whisper models")
struct WhisperModelTests {
    static let root = WorkerEngineTests.root

    /// What an engine name lists in brackets sets the worker: the model, compute type, beam,
    /// threads and seed; anything else is an error naming the setting and what is accepted.
    @Test func bracketsChooseTheModelAndSettings() throws {
        let defaults = try WhisperWorker.Settings.fromEnvironment([:])
        let base = try defaults.applying(["base", "beam5", "t2"])
        #expect(base.model == .base && base.beamSize == 5 && base.threads == 2 && base.computeType == "int8")
        #expect(WhisperWorker.engine(settings: base).name == "whisper[base,int8,beam5,t2]")
        #expect(WhisperWorker.engine(settings: base).capabilities.locales.contains("ru-RU"))
        #expect(WhisperWorker.engine(settings: defaults).capabilities.locales == ["en-US"])
        // A name the engine printed makes the same engine again.
        #expect(try defaults.applying(base.names) == base)
        for wrong in ["large", "beam0", "t", "seedx"] {
            #expect {
                try defaults.applying([wrong], engine: "whisper-streaming-la2")
            } throws: { error in
                let text = "\(error)"
                return text.contains("whisper-streaming-la2") && text.contains("'\(wrong)'")
                    && text.contains("tiny.en, base")
            }
        }
    }

    /// A model the bootstrap has not joined is not installed for any locale, and a session asks
    /// for the bootstrap by name instead of starting a worker that cannot load it.
    @Test func aMissingModelNamesWhatToRun() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-models-\(UUID())").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(WhisperModel.base.absence(root: empty)?.contains("run scripts/bootstrap") == true)
        #expect(WhisperModel.tinyEnglish.absence(root: empty) == nil)
        var settings = WhisperWorker.Settings()
        settings.model = .base
        let engine = WhisperWorker.engine(root: empty, settings: settings)
        #expect(!engine.isInstalled(locale: "es-MX"))
        await #expect {
            _ = try await engine.makeSession(EngineSessionConfiguration(locale: "es-MX"))
        } throws: { error in
            "\(error)".contains("whisper[base,int8,beam1,t1]")
                && "\(error)".contains("\(empty)/.venv/models/whisper-base")
        }
    }

    static var baseInstalled: Bool { WorkerEngineTests.ci || WhisperModel.base.isPresent(root: root) }

    /// One short digit string per corpus language, from the Asterisk prompts (real recordings, one
    /// voice per language), through Whisper base told the session's locale. Each is three digits
    /// with 0.25 s between them; the digits are compared however Whisper writes them.
    @Test(.enabled(if: baseInstalled)) func baseHearsEveryCorpusLanguage() async throws {
        var settings = WhisperWorker.Settings()
        settings.model = .base
        let engine = WhisperWorker.engine(root: Self.root, settings: settings)
        defer { Task { await engine.shutdown() } }
        let sounds = "/usr/share/asterisk/sounds/"
        let voices = [
            ("en-US", "en/digits"), ("es-MX", "es_MX_f_Allison/digits"), ("fr-CA", "fr_CA_f_June/digits"),
            ("it-IT", "it_IT_m_Carlo/digits"), ("ru-RU", "ru_RU_f_IvrvoiceRU/digits"),
        ]
        let digits = [2, 7, 4]
        for (locale, folder) in voices {
            let gap = [Float](repeating: 0, count: 4_000)
            var samples = gap
            for digit in digits {
                samples += try G722Decoder.decodeFile(path: sounds + folder + "/\(digit).g722") + gap
            }
            let session = try await engine.makeSession(EngineSessionConfiguration(locale: locale))
            let buffer = PCMBuffer(mono: samples, sampleRate: 16_000)
            _ = try await session.accept(buffer, at: .zero)
            let update = try await session.finalize(through: buffer.duration)
            await session.close()
            let text = update.finalized.flatMap(\.words).map(\.text).joined(separator: " ")
            #expect(DigitTranscript.words(text) == ["two", "seven", "four"], "\(locale): Whisper base wrote '\(text)'")
        }
    }
}
