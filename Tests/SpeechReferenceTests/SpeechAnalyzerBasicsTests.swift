import AVFAudio
import CoreMedia
import Foundation
import SpeechCore
import Testing

@testable import SpeechReference

@Suite("SpeechAnalyzer basics", .isolatedResources)
struct SpeechAnalyzerBasicsTests {
    @Test func transcribesAScriptedUtteranceWithVolatileThenFinalResults() async throws {
        let transcriber = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let consumer = Task { await collect(transcriber.results) }
        let last = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 20)))
        #expect(last == CMTime(value: 32_000, timescale: 16_000))
        try await analyzer.finalizeAndFinish(through: #require(last))
        let (results, error) = await consumer.value
        #expect(error == nil)
        let finals = results.filter(\.isFinal)
        #expect(finals.map(\.plain).joined(separator: " ") == "one two three")
        #expect(results.contains { !$0.isFinal })
        for result in results {
            #expect(result.text == result.alternatives[0])
            #expect(result.isFinal == (result.resultsFinalizationTime >= result.range.end))
        }
    }
}
