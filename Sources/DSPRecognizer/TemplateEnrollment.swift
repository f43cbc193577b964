import DSP
import Foundation
import SpeechCore

/// Builds the DSP engine's word templates for a locale from enrollment exemplars, writes them as
/// `<locale>.shdt` in the template folder, and installs them through the asset store (checksummed,
/// like any engine asset) unless told not to.
public struct TemplateEnrollment: Sendable {
    /// What was written for one locale.
    public struct Outcome: Sendable {
        public var locale: String
        public var entries: Int
        public var templates: Int
        public var frames: Int
        public var bytes: Int
        public var file: String
        public var installed: Bool
    }

    public var frontEnd = FrontEndConfiguration()
    public var parameters = DecoderParameters()
    public var warps: [Double] = [0.84, 0.92, 1, 1.08]
    public var templatesPerWord: Int?
    public var codebookSize = 2048
    public var installs = true

    public init() {}

    /// Enrolls one locale into `directory`; `problem` hears what the enroller could not use.
    public func enroll(
        _ exemplars: [TemplateEnroller.Exemplar], locale: String, into directory: String,
        problem: (TemplateEnroller.EnrollmentError) -> Void
    ) async throws -> Outcome {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let set = try TemplateEnroller.enroll(
            exemplars, locale: locale, vocabulary: Self.orderedVocabulary(exemplars), frontEnd: frontEnd,
            parameters: parameters, warps: warps, templatesPerWord: templatesPerWord, codebookSize: codebookSize,
            skip: problem)
        let bytes = try set.encoded()
        let file = directory + "/" + DSPEngine.fileName(locale: locale)
        try Data(bytes).write(to: URL(fileURLWithPath: file), options: .atomic)
        var installed = false
        if installs, let package = DSPEngine(templateDirectory: directory).assetPackage(for: locale) {
            try await HarnessContext.current.assets.install(
                package, progress: Progress(totalUnitCount: Int64(package.totalBytes)))
            installed = true
        }
        return Outcome(
            locale: locale, entries: set.vocabulary.count, templates: set.templates.count,
            frames: set.templates.reduce(0) { $0 + $1.frames.count } / set.frontEnd.dimension, bytes: bytes.count,
            file: file, installed: installed)
    }

    /// Digit words in numeric order ("oh" after them), then the other entries in order of appearance.
    public static func orderedVocabulary(_ exemplars: [TemplateEnroller.Exemplar]) -> [String] {
        var seen: [String] = []
        for e in exemplars where !seen.contains(e.text) { seen.append(e.text) }
        let digits = seen.filter { word in exemplars.contains { $0.text == word && $0.task == "digits" } }
        return digits + seen.filter { !digits.contains($0) }
    }
}
