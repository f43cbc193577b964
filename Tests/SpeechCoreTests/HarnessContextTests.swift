import Foundation
import SpeechCore
import Testing

@Suite struct HarnessContextTests {
    private enum LabelKey: HarnessContextKey {
        static let defaultValue = "unset"
    }

    @Test func aKeyReadsItsDefaultUntilSetAndEachCopyKeepsItsOwn() {
        var context = HarnessContext(environment: HarnessEnvironment([:]))
        #expect(context[LabelKey.self] == "unset")
        let before = context
        context[LabelKey.self] = "set"
        #expect(context[LabelKey.self] == "set")
        #expect(before[LabelKey.self] == "unset")
    }

    @Test func withChangesOnePartOfACopy() {
        let context = HarnessContext(environment: HarnessEnvironment(["A": "1"]))
        let changed = context.with(\.environment, context.environment.setting("A", to: "2"))
        #expect(changed.environment["A"] == "2")
        #expect(context.environment["A"] == "1")
    }

    @Test func theProgramsContextUsesTheComposedRegistryAndTheProcessEnvironment() {
        #expect(HarnessContext.program.engines === EngineRegistry.shared)
        #expect(HarnessContext.program.environment == HarnessEnvironment.process)
        #expect(HarnessContext.program.assets === AssetStore.standard)
    }

    @Test func tasksUnderDifferentContextsSeeTheirOwn() async {
        let seen = await withTaskGroup(of: String?.self) { group in
            for value in ["first", "second"] {
                let context = HarnessContext.current.with(
                    \.environment, HarnessContext.current.environment.setting("SPEECH_HARNESS_ENGINE", to: value))
                group.addTask {
                    await HarnessContext.$current.withValue(context) {
                        await Task.yield()
                        return HarnessContext.current.environment["SPEECH_HARNESS_ENGINE"]
                    }
                }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(Set(seen.compactMap { $0 }) == ["first", "second"])
        #expect(
            HarnessContext.current.environment["SPEECH_HARNESS_ENGINE"]
                == HarnessEnvironment.process["SPEECH_HARNESS_ENGINE"])
    }

    /// Configuration reaches library code through one task-local; the only others are where work
    /// runs and a debug counter (docs/architecture.md). A new one must be added here, on purpose.
    @Test func libraryCodeDeclaresNoOtherTaskLocal() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var found: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift", !file.path.contains("/MigrationLint/") else { continue }
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for line in lines
            where line.contains("@TaskLocal") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let name =
                    line.split(separator: " ").first { $0.hasSuffix(":") }.map { String($0.dropLast()) } ?? String(line)
                found.append("\(file.deletingPathExtension().lastPathComponent).\(name)")
            }
        }
        #expect(found.sorted() == ["EngineThread.current", "HarnessContext.current", "SampleCopies.meter"])
    }
}
