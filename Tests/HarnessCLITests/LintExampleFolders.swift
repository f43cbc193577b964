import Foundation
import MigrationLint
import TestSupport

/// The rules' examples as folders on disk, for the tests that run `migrate lint` end to end.
enum LintExampleFolders {
    /// Writes the example named `name` (the start of its description, as `cross-type-caller-wrong`)
    /// into a folder of that name under `directory`, without its marks, and returns the folder.
    static func write(_ name: String, in directory: TemporaryDirectory) throws -> URL {
        let examples = LintRules.all.flatMap { $0.triggeringExamples + $0.nonTriggeringExamples }
        guard let example = examples.first(where: { $0.about.hasPrefix(name + ":") }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "no rule example named \(name)"])
        }
        let folder = directory.url.appendingPathComponent(name)
        for source in example.unmarked().sources {
            let url = folder.appendingPathComponent(source.file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source.text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }
}
