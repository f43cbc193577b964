import DSP
import Foundation
import SpeechCore

/// The DSP reference engine: MFCC front end, voice activity and one-pass DTW over word templates
/// (`speech-harness engine enroll` makes them). Pure Swift and bit-for-bit deterministic.
///
/// Templates are assets: `<locale>.shdt` files in ``DSPEngine/templateDirectory`` are the sources
/// AssetInventory installs (with their checksums) into the asset store; sessions read the
/// installed copy only.
public struct DSPEngine: RecognitionEngine {
    public enum Task: String, Sendable, CaseIterable {
        /// Every enrolled entry.
        case all
        /// The digit words (and "oh" in English).
        case digits
        /// The command vocabulary.
        case commands
    }

    public static let locales = ["en-US", "es-MX", "fr-CA", "it-IT", "ru-RU"]

    public let id: String
    public let task: Task
    public let templateDirectory: String
    public let capabilities: EngineCapabilities

    /// Where enrolled template files are: `SPEECH_HARNESS_DSP_TEMPLATES`, else
    /// `Corpus/build/dsp-templates` under the package root.
    public static var defaultTemplateDirectory: String {
        let environment = HarnessContext.current.environment.variables
        if let path = HarnessSettings.dspTemplates.text(in: environment) { return path }
        return PackageRoot.path + "/Corpus/build/dsp-templates"
    }

    public init(task: Task = .all, templateDirectory: String = DSPEngine.defaultTemplateDirectory) {
        self.task = task
        self.templateDirectory = templateDirectory
        id = task == .all ? "dsp" : "dsp-\(task.rawValue)"
        capabilities = EngineCapabilities(
            partialResults: true, wordTimes: true, alternatives: true, confidence: true, locales: Self.locales,
            formats: [16_000.0, 8_000].flatMap { rate in
                [
                    AudioFormat(sampleRate: rate, channelCount: 1, sampleType: .float32),
                    AudioFormat(sampleRate: rate, channelCount: 1, sampleType: .int16),
                ]
            })
    }

    public static func fileName(locale: String) -> String { LocaleTag.normalized(locale) + ".shdt" }

    /// The template file for `locale` as an asset package, when one has been enrolled.
    public func assetPackage(for locale: String) -> AssetPackage? {
        guard supports(locale: locale) else { return nil }
        let path = templateDirectory + "/" + Self.fileName(locale: locale)
        guard let digest = FileDigests.shared.digest(path: path) else { return nil }
        // The package version is the file's own format version, so MFCC sets written before
        // version 2 existed stay installed.
        let version =
            Self.head(ofFileAt: path).flatMap(TemplateSet.declaredVersion(ofHead:)) ?? Int(TemplateSet.formatVersion)
        return AssetPackage(
            id: "dsp/\(LocaleTag.normalized(locale))", version: version,
            locale: LocaleTag.normalized(locale),
            files: [
                AssetPackage.File(name: "templates.shdt", source: .file(path), sha256: digest.sha256, size: digest.size)
            ])
    }

    /// The first eight bytes of a file, where a template file declares its format version.
    static func head(ofFileAt path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 8)).map { Array($0) }
    }

    public func isInstalled(locale: String) -> Bool {
        guard let package = assetPackage(for: locale) else { return false }
        return HarnessContext.current.assets.isInstalled(package)
    }

    /// The voices the installed templates for `locale` were enrolled from; nil when none are
    /// installed or the file predates the list.
    public func enrolledSpeakers(locale: String) -> Set<String>? {
        guard let (templates, _) = try? installedTemplates(for: locale), !templates.speakers.isEmpty else { return nil }
        return Set(templates.speakers)
    }

    /// The installed templates for `locale` (this engine's task only) and their decoder model,
    /// from the cache; nil when none are installed.
    func installedTemplates(for locale: String) throws -> (TemplateSet, DecoderModel)? {
        guard let package = assetPackage(for: locale),
            let file = HarnessContext.current.assets.installedFile("templates.shdt", of: package)
        else { return nil }
        return try TemplateCache.shared.templates(path: file.path, sha256: package.files[0].sha256, task: task)
    }

    public func makeSession(_ configuration: EngineSessionConfiguration) async throws -> any RecognitionSession {
        guard supports(locale: configuration.locale) else {
            throw EngineError.unsupportedLocale(engine: id, locale: configuration.locale)
        }
        guard let (templates, model) = try installedTemplates(for: configuration.locale) else {
            throw EngineError.notInstalled(engine: id, locale: configuration.locale)
        }
        var options = TemplateRecognizer.Options()
        options.reportsPartials = configuration.reportsPartialResults
        options.maximumAlternatives = configuration.maximumAlternatives
        return DSPSession(engine: id, templates: templates, model: model, options: options)
    }
}

/// One DSP recognition stream. The recogniser is a value guarded by a lock; every call is a short
/// burst of arithmetic (about a third of a millisecond per 100 ms of audio), so it runs inline.
final class DSPSession: RecognitionSession, @unchecked Sendable {
    private struct State {
        var recognizer: TemplateRecognizer?
        var closed = false
    }

    private let engine: String
    private let templates: TemplateSet
    private let model: DecoderModel
    private let options: TemplateRecognizer.Options
    private let state = Locked(State())

    init(engine: String, templates: TemplateSet, model: DecoderModel, options: TemplateRecognizer.Options) {
        self.engine = engine
        self.templates = templates
        self.model = model
        self.options = options
    }

    private func timed(_ body: (inout TemplateRecognizer?) throws -> HypothesisUpdate) throws -> HypothesisUpdate {
        // The body runs synchronously on this thread, so its thread CPU time is the engine's compute.
        var (update, seconds) = try CPUClock.measure {
            try state.withLock { state -> HypothesisUpdate in
                guard !state.closed else { throw CancellationError() }
                return try body(&state.recognizer)
            }
        }
        update.computeSeconds = seconds
        return update
    }

    func accept(_ audio: PCMBuffer, at start: MediaTime) async throws -> HypothesisUpdate {
        guard audio.format.channelCount == 1 else {
            throw EngineError.unsupportedFormat(engine: engine, format: "\(audio.format.channelCount) channels")
        }
        let samples = audio.floatChannels[0]
        return try timed { recognizer in
            if recognizer == nil {
                recognizer = TemplateRecognizer(
                    templates: templates, model: model, sampleRate: audio.format.sampleRate, options: options)
            }
            guard recognizer!.sampleRate == audio.format.sampleRate else {
                throw EngineError.unsupportedFormat(
                    engine: engine,
                    format: "\(audio.format.sampleRate) Hz after \(recognizer!.sampleRate) Hz in one session")
            }
            return recognizer!.accept(samples, at: start)
        }
    }

    func finalize(through time: MediaTime) async throws -> HypothesisUpdate {
        try timed { recognizer in recognizer?.finalize() ?? HypothesisUpdate() }
    }

    func cancel(before time: MediaTime) async -> HypothesisUpdate {
        (try? timed { recognizer in recognizer?.cancel() ?? HypothesisUpdate() }) ?? HypothesisUpdate()
    }

    func close() async {
        state.withLock {
            $0.closed = true
            $0.recognizer = nil
        }
    }
}

/// Decoded template sets and their search layouts, by installed file and checksum, shared by
/// sessions in a process.
final class TemplateCache: Sendable {
    static let shared = TemplateCache()
    private let sets = Locked<[String: (TemplateSet, DecoderModel)]>([:])

    func templates(path: String, sha256: String, task: DSPEngine.Task) throws -> (TemplateSet, DecoderModel) {
        let key = "\(sha256)|\(task.rawValue)"
        if let cached = sets.withLock({ $0[key] }) { return cached }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EngineError.failed(engine: "dsp", reason: "cannot read \(path)")
        }
        var set: TemplateSet
        do {
            set = try TemplateSet.decode(Array(data), name: path)
        } catch {
            throw EngineError.failed(engine: "dsp", reason: "\(error)")
        }
        switch task {
        case .all: break
        case .digits, .commands: set = set.restricted(toTask: task.rawValue)
        }
        guard !set.templates.isEmpty else {
            throw EngineError.failed(engine: "dsp", reason: "\(path) has no templates for the \(task.rawValue) task")
        }
        let entry = (set, DecoderModel(templates: set))
        sets.withLock { $0[key] = entry }
        return entry
    }
}

/// SHA-256 and size of source files, recomputed only when a file's size or modification time changes.
final class FileDigests: Sendable {
    static let shared = FileDigests()
    private let cache = Locked<[String: (stamp: String, sha256: String, size: Int)]>([:])

    func digest(path: String) -> (sha256: String, size: Int)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int
        else { return nil }
        let stamp = "\(size)|\((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        if let hit = cache.withLock({ $0[path] }), hit.stamp == stamp { return (hit.sha256, hit.size) }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let sha = SHA256.hex(Array(data))
        cache.withLock { $0[path] = (stamp, sha, data.count) }
        return (sha, data.count)
    }
}
