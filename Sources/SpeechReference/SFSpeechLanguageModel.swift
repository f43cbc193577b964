import Foundation
import SpeechCore

/// The file `SFCustomLanguageModelData.export(to:)` writes. Apple's export format is private;
/// here it is JSON, read back by `SFSpeechLanguageModel.prepareCustomLanguageModel`.
@_spi(Harness) public struct CustomLanguageModelExport: Codable, Sendable, Hashable {
    public struct Pronunciation: Codable, Sendable, Hashable {
        public var grapheme: String
        public var phonemes: [String]

        public init(grapheme: String, phonemes: [String]) {
            self.grapheme = grapheme
            self.phonemes = phonemes
        }
    }

    public var format = "speech-harness-custom-lm"
    public var locale: String
    public var identifier: String
    public var version: String
    public var phraseCounts: [CustomPhrase]
    public var pronunciations: [Pronunciation]

    public init(
        locale: String, identifier: String, version: String, phraseCounts: [CustomPhrase],
        pronunciations: [Pronunciation]
    ) {
        self.locale = locale
        self.identifier = identifier
        self.version = version
        self.phraseCounts = phraseCounts
        self.pronunciations = pronunciations
    }
}

/// Custom language models (the legacy recogniser's `customizedLanguageModel`, DictationTranscriber's
/// `customizedLanguage` hint): `prepareCustomLanguageModel` compiles an exported
/// `SFCustomLanguageModelData` file into the configuration's files, and a legacy request with
/// `customizedLanguageModel` hands its phrases to the engine. PocketSphinx then recognises only
/// those phrases (a weighted grammar of the ones its dictionary can say); the other engines here
/// do not take custom phrases and ignore them (Whisper, and the DSP engine with its enrolled vocabulary).
public final class SFSpeechLanguageModel: @unchecked Sendable {
    public final class Configuration: NSObject, @unchecked Sendable {
        public let languageModel: URL
        public let vocabulary: URL?
        public let weight: NSNumber?

        public init(languageModel: URL) {
            self.languageModel = languageModel
            self.vocabulary = nil
            self.weight = nil
        }

        public init(languageModel: URL, vocabulary: URL?) {
            self.languageModel = languageModel
            self.vocabulary = vocabulary
            self.weight = nil
        }

        public init(languageModel: URL, vocabulary: URL?, weight: NSNumber?) {
            self.languageModel = languageModel
            self.vocabulary = vocabulary
            self.weight = weight
        }

        /// The prepared model's phrases; an error names the file when it was not prepared.
        public func phrases() throws -> [CustomPhrase] {
            guard let data = FileManager.default.contents(atPath: languageModel.path) else {
                throw ModelError.unreadable(
                    path: languageModel.path, reason: "no such file; call prepareCustomLanguageModel first")
            }
            do { return try JSONDecoder().decode(CompiledModel.self, from: data).phrases } catch {
                throw ModelError.unreadable(path: languageModel.path, reason: "not a prepared language model: \(error)")
            }
        }
    }

    /// Why a custom model could not be made or used.
    public enum ModelError: Error, CustomStringConvertible, Sendable {
        case unreadable(path: String, reason: String)
        case unwritable(path: String, reason: String)

        public var description: String {
            switch self {
            case .unreadable(let path, let reason): return "\(path): \(reason)"
            case .unwritable(let path, let reason): return "\(path): cannot write: \(reason)"
            }
        }
    }

    struct CompiledModel: Codable {
        var identifier: String
        var locale: String
        var phrases: [CustomPhrase]
    }

    /// Reads the exported data at `asset` and writes the configuration's language model (and
    /// vocabulary, one word a line, the pronunciations' words included).
    public class func prepareCustomLanguageModel(
        for asset: URL, clientIdentifier: String, configuration: Configuration
    ) async throws {
        try prepare(asset, configuration)
    }

    public class func prepareCustomLanguageModel(
        for asset: URL, clientIdentifier: String, configuration: Configuration,
        ignoresCache: Bool
    ) async throws {
        try prepare(asset, configuration)
    }

    public class func prepareCustomLanguageModel(
        for asset: URL, clientIdentifier: String, configuration: Configuration,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let error: (any Error)?
        do {
            try prepare(asset, configuration)
            error = nil
        } catch let failure { error = failure }
        DispatchQueue.global().async { completion(error) }
    }

    private static func prepare(_ asset: URL, _ configuration: Configuration) throws {
        guard let data = FileManager.default.contents(atPath: asset.path) else {
            throw ModelError.unreadable(path: asset.path, reason: "no such file")
        }
        let file: CustomLanguageModelExport
        do { file = try JSONDecoder().decode(CustomLanguageModelExport.self, from: data) } catch {
            throw ModelError.unreadable(
                path: asset.path, reason: "not exported by SFCustomLanguageModelData.export(to:): \(error)")
        }
        let model = CompiledModel(identifier: file.identifier, locale: file.locale, phrases: file.phraseCounts)
        do { try JSONEncoder().encode(model).write(to: configuration.languageModel) } catch {
            throw ModelError.unwritable(path: configuration.languageModel.path, reason: "\(error)")
        }
        if let vocabulary = configuration.vocabulary {
            let words = Set(
                file.phraseCounts.flatMap { $0.text.lowercased().split(separator: " ").map(String.init) }
                    + file.pronunciations.map(\.grapheme))
            do {
                try (words.sorted().joined(separator: "\n") + "\n").write(
                    to: vocabulary, atomically: true, encoding: .utf8)
            } catch {
                throw ModelError.unwritable(path: vocabulary.path, reason: "\(error)")
            }
        }
    }
}
