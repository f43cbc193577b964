import AudioIO
import SpeechCore

/// The enrollment recordings of manifests, for engines that learn from examples (the DSP
/// engine's templates): utterances of split `enrollment` and task `digits` (one word each) or
/// `commands` (a phrase), read as mono audio, by locale. Test-split audio is never read.
public struct EnrollmentRecordings: Sendable {
    public struct Recording: Sendable {
        public var samples: [Float]
        public var sampleRate: Double
        public var text: String
        public var task: String
        public var speaker: String
        public var id: String
    }

    /// Recordings by normalised locale tag.
    public private(set) var byLocale: [String: [Recording]] = [:]
    /// Manifest problems and unreadable audio, each naming its file.
    public private(set) var problems: [String] = []

    /// Reads `manifests`; with `locales`, only those (normalised tags).
    public init(manifests: [String], locales: Set<String> = []) {
        for manifest in manifests {
            let load = ManifestReader.load(path: manifest)
            problems += load.issues.map { "\($0)" }
            for utterance in load.utterances
            where utterance.split == .enrollment && ["digits", "commands"].contains(utterance.task) {
                let locale = LocaleTag.normalized(utterance.locale)
                guard locales.isEmpty || locales.contains(locale) else { continue }
                // Digit exemplars must be a single word; a command may be a phrase.
                guard utterance.task == "commands" || utterance.wordCount == 1 else { continue }
                let audio = ManifestValidator.resolve(utterance.audio, root: load.root)
                do {
                    let (samples, rate) = try AudioFileReader.readMono(path: audio)
                    byLocale[locale, default: []].append(
                        Recording(
                            samples: samples, sampleRate: rate, text: utterance.reference, task: utterance.task,
                            speaker: utterance.speaker, id: utterance.id))
                } catch {
                    problems.append("\(error)")
                }
            }
        }
    }
}
