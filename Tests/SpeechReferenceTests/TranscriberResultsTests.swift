import AVFAudio
import CoreMedia
import EngineCore
import Foundation
import SpeechCore
import Testing

@_spi(Harness) @testable import SpeechReference

@Suite("Transcriber results", .isolatedResources)
struct TranscriberResultsTests {
    func run(_ transcriber: SpeechTranscriber, seconds: Double = 2.5) async throws -> [SpeechTranscriber.Result] {
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let last = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: Int(seconds * 10))))
        try await analyzer.finalizeAndFinish(through: #require(last))
        let results = await collect(transcriber.results)
        #expect(results.error == nil)
        return results.elements
    }

    @Test func transcriptionPresetGivesFinalResultsOnly() async throws {
        let results = try await run(Fixture.transcriber(preset: .transcription))
        #expect(!results.isEmpty && results.allSatisfy { $0.isFinal })
        #expect(results.map(\.plain) == ["one two three"])
    }

    @Test func revisionsShowAsVolatileThenTheFinalTextNeverChanges() async throws {
        let script = EngineScript(
            words: [
                .init("two", start: 0.2, end: 0.6, revisions: ["too", "to"]), .init("four", start: 0.7, end: 1.1),
            ],
            revisionInterval: 0.1, endpointSilence: 0.5)
        let results = try await run(Fixture.transcriber(ScriptedEngine(script: script)))
        let volatile = results.filter { !$0.isFinal }.map(\.plain)
        #expect(volatile.prefix(3) == ["too", "to", "two"])
        let finals = results.filter(\.isFinal)
        #expect(finals.map(\.plain) == ["two four"])
        // isFinal follows the finalisation time; volatile results end after it.
        for result in results { #expect(result.isFinal == (result.resultsFinalizationTime >= result.range.end)) }
    }

    @Test func normalCadenceEmitsFewerVolatileResultsThanFast() async throws {
        let text = (1...12).map { "w\($0)" }.joined(separator: " ")
        let engine = ScriptedEngine(script: .evenlySpaced(text, duration: 0.15, gap: 0.05, endpointSilence: nil))
        let fast = try await run(
            SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription, engine: engine),
            seconds: 3)
        let normalPreset = SpeechTranscriber.Preset(
            transcriptionOptions: [], reportingOptions: [.volatileResults], attributeOptions: [])
        let normal = try await run(
            SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: normalPreset, engine: engine), seconds: 3)
        let fastCount = fast.filter { !$0.isFinal }.count, normalCount = normal.filter { !$0.isFinal }.count
        #expect(fastCount == 12)
        #expect(normalCount < fastCount && normalCount >= 5)
        #expect(fast.filter(\.isFinal).map(\.plain) == normal.filter(\.isFinal).map(\.plain))
    }

    @Test func alternativesAreNeverEmptyAndStartWithTheText() async throws {
        let script = EngineScript(words: [
            .init("write", start: 0.2, end: 0.6, alternatives: ["right", "rite"]), .init("it", start: 0.7, end: 0.9),
        ])
        let engine = ScriptedEngine(script: script)
        let with = try await run(
            SpeechTranscriber(
                locale: Locale(identifier: "en-US"), preset: .transcriptionWithAlternatives, engine: engine))
        #expect(
            with.first.map { $0.alternatives.map { String($0.characters) } } == ["write it", "right it", "rite it"])
        let without = try await run(
            SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription, engine: engine))
        #expect(without.first?.alternatives.count == 1)
        for result in with + without { #expect(result.text == result.alternatives[0]) }
    }

    @Test func wordAttributesCarryTimeRangesAndConfidence() async throws {
        let script = EngineScript(words: [
            .init("hello", start: 0.2, end: 0.6, confidence: 0.9),
            .init("world", start: 0.7, end: 1.1, confidence: 0.4),
        ])
        let transcriber = SpeechTranscriber(
            locale: Locale(identifier: "en-US"), transcriptionOptions: [], reportingOptions: [],
            attributeOptions: [.audioTimeRange, .transcriptionConfidence], engine: ScriptedEngine(script: script),
            engineProblem: nil)
        let result = try #require(try await run(transcriber).first)
        let runs = result.text.runs.compactMap { run -> (String, CMTimeRange, Double)? in
            guard let range = run.audioTimeRange, let confidence = run.transcriptionConfidence else { return nil }
            return (String(result.text[run.range].characters), range, confidence)
        }
        #expect(runs.map(\.0) == ["hello", "world"])
        #expect(abs(runs[1].1.start.seconds - 0.7) < 1e-6 && abs(runs[1].1.end.seconds - 1.1) < 1e-6)
        #expect(runs.map(\.2) == [0.9, 0.4])
        let span = try #require(
            result.text.rangeOfAudioTimeRangeAttributes(
                intersecting: TimeRange(start: Fixture.seconds(0.8), end: Fixture.seconds(0.9))))
        #expect(String(result.text[span].characters) == "world")
    }

    @Test func wordAttributesFollowAttachedPunctuationAndCombiningMarks() async throws {
        // "cafe\u{301}" is four characters and five scalars; "," attaches to the word before it.
        let script = EngineScript(words: [
            .init("cafe\u{301}", start: 0.1, end: 0.5, confidence: 0.8), .init(",", start: 0.5, end: 0.55),
            .init("noir", start: 0.6, end: 0.9, confidence: 0.3),
        ])
        let transcriber = SpeechTranscriber(
            locale: Locale(identifier: "en-US"), transcriptionOptions: [], reportingOptions: [],
            attributeOptions: [.audioTimeRange], engine: ScriptedEngine(script: script), engineProblem: nil)
        let result = try #require(try await run(transcriber).first)
        #expect(result.plain == "cafe\u{301}, noir")
        let runs = result.text.runs.map { run in
            (String(result.text[run.range].characters), run.audioTimeRange?.start.seconds, run.transcriptionConfidence)
        }
        #expect(runs.map(\.0) == ["cafe\u{301}", ",", " ", "noir"])
        #expect(runs.map { $0.1.map { ($0 * 100).rounded() / 100 } } == [0.1, 0.5, nil, 0.6])
        #expect(runs.allSatisfy { $0.2 == nil })  // confidence was not asked for
    }

    @Test func etiquetteReplacementsMaskWords() async throws {
        let engine = ScriptedEngine(script: .evenlySpaced("oh damn it"))
        let transcriber = SpeechTranscriber(
            locale: Locale(identifier: "en-US"), transcriptionOptions: [.etiquetteReplacements],
            reportingOptions: [], attributeOptions: [], engine: engine, engineProblem: nil)
        #expect(try await run(transcriber).map(\.plain) == ["oh d*** it"])
    }

    @Test func dictationPunctuatesAndPlacesEmoji() async throws {
        let engine = ScriptedEngine(script: .evenlySpaced("see you soon comma heart emoji"))
        let dictation = DictationTranscriber(
            locale: Locale(identifier: "en-US"), preset: .longDictation, engine: engine)
        let analyzer = SpeechAnalyzer(modules: [dictation])
        let last = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 35)))
        try await analyzer.finalizeAndFinish(through: #require(last))
        let results = await collect(dictation.results)
        #expect(results.elements.map { String($0.text.characters) } == ["See you soon, ❤️."])
    }

    @Test func localesAreResolvedWithRegionFallback() async throws {
        await HarnessContext.$current.withValue(HarnessContext.current.with(\.engine, Fixture.engine())) {
            #expect(
                await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "en_US")).map(
                    LocaleSupport.tag) == "en-US")
            #expect(
                await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "en-AU")).map(
                    LocaleSupport.tag) == "en-US")
            #expect(await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: "ja-JP")) == nil)
            // The engine's locales, and Locale.current beside the device's (DeviceLocaleTests).
            #expect(await SpeechTranscriber.supportedLocales.count == ScriptedEngine.defaultLocales.count + 1)
            #expect(SpeechTranscriber.isAvailable)
        }
    }
}

@Suite("Modules, resources and the detector", .isolatedResources)
struct ModulesAndResourcesTests {
    @Test func aModuleAddedMidStreamSeesOnlyNewAudio() async throws {
        let engine = Fixture.engine()
        let early = Fixture.transcriber(engine)
        let late = Fixture.transcriber(engine)
        let analyzer = SpeechAnalyzer(modules: [early])
        _ = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 10)))
        try await analyzer.setModules([early, late])
        _ = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 15)))
        try await analyzer.finalizeAndFinish(through: Fixture.seconds(2.5))
        let earlyText = await collect(early.results).elements.filter(\.isFinal).map(\.plain).joined(separator: " ")
        let lateResults = await collect(late.results).elements
        #expect(earlyText == "one two three")
        // "one" (0.2–0.6) was before the late module joined at 1.0 s.
        #expect(lateResults.allSatisfy { $0.range.start >= Fixture.seconds(1.0) })
        #expect(lateResults.filter(\.isFinal).map(\.plain).joined(separator: " ") == "three")
    }

    @Test func aModuleCannotMoveBetweenAnalyzers() async throws {
        let transcriber = Fixture.transcriber()
        let first = SpeechAnalyzer(modules: [])
        try await first.setModules([transcriber])
        let second = SpeechAnalyzer(modules: [])
        await #expect(throws: SpeechAnalyzerUsageError.self) { try await second.setModules([transcriber]) }
        await first.cancelAndFinishNow()
    }

    @Test func removedModulesStreamsEnd() async throws {
        let kept = Fixture.transcriber(), removed = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [kept, removed])
        _ = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 3)))
        try await analyzer.setModules([kept])
        #expect(removed.channel.broadcast.isFinished && !kept.channel.broadcast.isFinished)
        await analyzer.cancelAndFinishNow()
    }

    @Test func resourceLimitAndItsOverride() async throws {
        try await HarnessContext.$current.withValue(HarnessContext.current.with(\.resourcePool, ResourcePool(limit: 1)))
        {
            let english = Fixture.transcriber()
            let first = SpeechAnalyzer(modules: [english])
            _ = try await first.analyzeSequence(Fixture.stream(Fixture.inputs(count: 1)))
            // The same configuration shares the engine instance.
            let sameConfig = SpeechAnalyzer(modules: [Fixture.transcriber()])
            _ = try await sameConfig.analyzeSequence(Fixture.stream(Fixture.inputs(count: 1)))
            // A different locale is a second configuration: past the limit.
            let french = SpeechTranscriber(
                locale: Locale(identifier: "fr-FR"), preset: .transcription, engine: Fixture.engine())
            let second = SpeechAnalyzer(modules: [french])
            await #expect(throws: SFSpeechError(.insufficientResources)) {
                try await second.analyzeSequence(Fixture.stream(Fixture.inputs(count: 1)))
            }
            let unlimited = SpeechAnalyzer(
                modules: [
                    SpeechTranscriber(
                        locale: Locale(identifier: "fr-FR"), preset: .transcription, engine: Fixture.engine())
                ],
                options: .init(priority: .medium, modelRetention: .whileInUse, ignoresResourceLimits: true))
            _ = try await unlimited.analyzeSequence(Fixture.stream(Fixture.inputs(count: 1)))
            // Finishing gives the configuration back.
            await first.cancelAndFinishNow()
            await sameConfig.cancelAndFinishNow()
            let third = SpeechAnalyzer(modules: [
                SpeechTranscriber(locale: Locale(identifier: "fr-FR"), preset: .transcription, engine: Fixture.engine())
            ])
            _ = try await third.analyzeSequence(Fixture.stream(Fixture.inputs(count: 1)))
            await third.cancelAndFinishNow()
            await unlimited.cancelAndFinishNow()
        }
    }

    @Test func modelRetentionKeepsConfigurationsUntilEnded() async throws {
        let analyzer = SpeechAnalyzer(
            modules: [
                SpeechTranscriber(locale: Locale(identifier: "it-IT"), preset: .transcription, engine: Fixture.engine())
            ],
            options: .init(priority: .low, modelRetention: .processLifetime))
        try await analyzer.prepareToAnalyze(in: nil)
        await analyzer.cancelAndFinishNow()
        #expect(await SpeechModels.retainedConfigurations.contains("scripted:it-IT"))
        await SpeechModels.endRetention()
        #expect(await !SpeechModels.retainedConfigurations.contains("scripted:it-IT"))
    }

    @Test func prepareReportsProgress() async throws {
        let analyzer = SpeechAnalyzer(modules: [Fixture.transcriber(), Fixture.transcriber()])
        let seen = EventLog<Progress>()
        try await analyzer.prepareToAnalyze(in: Fixture.format) { progress in seen.append(progress) }
        #expect(seen.items.count == 1 && seen.items[0].fractionCompleted == 1)
        await analyzer.cancelAndFinishNow()
    }

    @Test func speechDetectorFindsTheSpokenPart() async throws {
        let detector = SpeechDetector(detectionOptions: .init(sensitivityLevel: .medium), reportResults: true)
        let analyzer = SpeechAnalyzer(modules: [detector])
        let silence = AVAudioPCMBuffer(pcmFormat: Fixture.format, frameCapacity: 8_000)!
        silence.frameLength = 8_000
        let loud = AVAudioPCMBuffer(pcmFormat: Fixture.format, frameCapacity: 8_000)!
        loud.frameLength = 8_000
        for i in 0..<8_000 { loud.floatChannelData![0][i] = 0.3 * Float(sin(Double(i) * 0.1)) }
        let quiet2 = AVAudioPCMBuffer(pcmFormat: Fixture.format, frameCapacity: 16_000)!
        quiet2.frameLength = 16_000
        let last = try await analyzer.analyzeSequence(
            Fixture.stream([AnalyzerInput(buffer: silence), AnalyzerInput(buffer: loud), AnalyzerInput(buffer: quiet2)])
        )
        try await analyzer.finalizeAndFinish(through: #require(last))
        let results = await collect(detector.results).elements
        #expect(results.map(\.speechDetected) == [false, true, false])
        #expect(results[1].range.start == Fixture.seconds(0.5) && results[1].range.end == Fixture.seconds(1.0))
        #expect(results.allSatisfy { $0.isFinal })
    }
}
