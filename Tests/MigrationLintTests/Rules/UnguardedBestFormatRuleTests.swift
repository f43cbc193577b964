import Foundation
import MigrationLint
import Testing

/// unguarded-best-format: the rule's findings and the shapes it must stay quiet on.
extension MigrationLinterTests {
    @Test func bestFormatIsOptional() {
        let bad = """
            func setUp() async {
                let format = await SpeechAnalyzer.bestAvailableAudioFormat(
                    compatibleWith: [transcriber]
                )
                print(format.sampleRate)
            }
            """
        let good = """
            func a() async throws {
                guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]) else { throw Failure.noFormat }
            }
            func b() async {
                let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules)
                guard let format else { return }
            }
            func c() async -> AVAudioFormat? { return await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules) }
            func d() async { let rate = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules)?.sampleRate }
            func e() async {
                let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: modules)
                let converter = Converter(analyzerFormat: format)
            }
            """
        // Kept in a property and read through `self.` into an optional parameter, or bound by
        // `guard let x = self.property` (two public apps' shapes).
        let stored = """
            final class Feeder {
                var analyzerFormat: AVAudioFormat?
                var best: AVAudioFormat?
                func setUp() async throws {
                    self.analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                    self.best = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                    try await analyzer.prepareToAnalyze(in: self.best, withProgressReadyHandler: nil)
                }
                func feed(_ buffer: AVAudioPCMBuffer) {
                    guard let builder, let target = analyzerFormat else { return }
                    builder.yield(AnalyzerInput(buffer: convert(buffer, to: target)))
                }
            }
            """
        #expect(Self.rules(stored).isEmpty)
        #expect(
            Self.rules(
                stored.replacingOccurrences(of: "let target = analyzerFormat", with: "let target = Optional(1)")
                    .replacingOccurrences(of: "to: target", with: "to: analyzerFormat!")) == ["unguarded-best-format"])
        #expect(Self.rules(bad) == ["unguarded-best-format"])
        #expect(Self.rules(good).isEmpty)
        // Interpolating it prints "Optional(…)"; storing it defers the question to code that may never ask.
        #expect(
            Self.rules("let f = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: m)\nprint(\"\\(f)\")")
                == ["unguarded-best-format"])
        #expect(
            Self.rules("let f = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: m)\nself.format = f") == [
                "unguarded-best-format"
            ])
    }

    /// A stored format read through a lock into a local that is then unwrapped is handled.
    @Test func aFormatReadThroughALockIntoAGuardedLocalIsHandled() {
        let source = """
            final class Engine {
                private var analyzerFormat: AVAudioFormat?
                func start() async {
                    let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber])
                    self.analyzerFormat = format
                }
                func feed() {
                    let current = withLock { self.analyzerFormat }
                    guard let current else { return }
                    use(current)
                }
            }
            """
        #expect(Self.rules(source).isEmpty)
        #expect(
            Self.rules(source.replacingOccurrences(of: "guard let current else { return }", with: "print(current!)"))
                == ["unguarded-best-format"])
    }
}
