import AVFAudio
import CoreMedia
import Foundation
import SpeechCore
import Testing

@_spi(Harness) @testable import SpeechReference

/// The session rules of DESIGN §2: finishing, finalising, errors, cancellation.
@Suite("SpeechAnalyzer lifecycle", .isolatedResources)
struct AnalyzerLifecycleTests {
    @Test func endingTheInputSequenceDoesNotFinishTheSession() async throws {
        let transcriber = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        _ = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 10)))
        #expect(!transcriber.channel.broadcast.isFinished)
        // A second sequence continues the same session and timeline.
        let last = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 10)))
        #expect(last == Fixture.seconds(2))
        #expect(!transcriber.channel.broadcast.isFinished)
        try await analyzer.finalizeAndFinish(through: #require(last))
        #expect(transcriber.channel.broadcast.isFinished)
    }

    @Test func afterFinishingStreamsEndNoInputIsTakenAndPublishedResultsStayReadable() async throws {
        let transcriber = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        _ = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 20)))
        try await analyzer.finalizeAndFinish(through: Fixture.seconds(2))
        let before = await collect(transcriber.results)
        #expect(before.error == nil)
        #expect(before.elements.filter(\.isFinal).map(\.plain).joined(separator: " ") == "one two three")
        // More input is not consumed; the volatile range stays where it was.
        let range = await analyzer.volatileRange
        let returned = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 5)))
        #expect(returned == nil)
        #expect(await analyzer.volatileRange == range)
        // Most methods do nothing; a finalise of audio already final succeeds.
        try await analyzer.setModules([])
        #expect(await analyzer.modules.count == 1)
        try await analyzer.finalize(through: Fixture.seconds(1))
        // A new reader still gets everything that was published.
        let again = await collect(transcriber.results)
        #expect(again.elements == before.elements)
    }

    @Test func finishAfterWaitsForThatAudio() async throws {
        let transcriber = Fixture.transcriber()
        let (stream, input) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(inputSequence: stream, modules: [transcriber])
        let finishing = Task { try await analyzer.finish(after: Fixture.seconds(1)) }
        for item in Fixture.inputs(count: 10) { input.yield(item) }
        try await finishing.value
        // At return the streams have ended and audio through the time was consumed.
        #expect(transcriber.channel.broadcast.isFinished)
        #expect(try #require(await analyzer.volatileRange).end >= Fixture.seconds(1))
        input.finish()
    }

    @Test func finalizeWaitsForAudioThenPublishesAndMovesTheVolatileRange() async throws {
        let transcriber = Fixture.transcriber(Fixture.engine("alpha beta gamma", endpoint: nil))
        let (stream, input) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(inputSequence: stream, modules: [transcriber])
        let target = Fixture.seconds(1.2)
        let finalizing = Task {
            try await analyzer.finalize(through: target)
            // Postconditions at the moment it returns:
            let published = transcriber.channel.broadcast.published
            let range = await analyzer.volatileRange
            return (published, range)
        }
        for item in Fixture.inputs(count: 16) { input.yield(item) }
        let (published, range) = try await finalizing.value
        let volatile = try #require(range)
        #expect(volatile.start >= target)
        #expect(volatile.end >= target)
        // "alpha" (0.2–0.6) and "beta" (0.7–1.1) are final; "gamma" (1.2–1.6) is not.
        #expect(published.filter(\.isFinal).map(\.plain) == ["alpha beta"])
        input.finish()
        await analyzer.cancelAndFinishNow()
    }

    @Test func finalizeOfATimeAlreadyFinalDoesNothing() async throws {
        let transcriber = Fixture.transcriber(Fixture.engine(endpoint: nil))
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        _ = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 20)))
        try await analyzer.finalize(through: Fixture.seconds(2))
        let count = transcriber.channel.broadcast.publishedCount
        try await analyzer.finalize(through: Fixture.seconds(1))
        #expect(transcriber.channel.broadcast.publishedCount == count)
        await analyzer.cancelAndFinishNow()
    }

    @Test func finalizeNilMeansWhatWasConsumed() async throws {
        let transcriber = Fixture.transcriber(Fixture.engine(endpoint: nil))
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        // Nothing consumed: returns at once, no results.
        try await analyzer.finalize(through: nil)
        #expect(transcriber.channel.broadcast.publishedCount == 0)
        #expect(await analyzer.volatileRange == nil)
        _ = try await analyzer.analyzeSequence(Fixture.stream(Fixture.inputs(count: 12)))
        try await analyzer.finalize(through: nil)
        let range = try #require(await analyzer.volatileRange)
        #expect(range.start == Fixture.seconds(1.2) && range.isEmpty)
        #expect(transcriber.channel.broadcast.published.filter(\.isFinal).map(\.plain) == ["one two"])
        await analyzer.cancelAndFinishNow()
    }

    @Test func cancelAndFinishNowWorksBeforeAnyInputAndCancelsWaiters() async throws {
        let transcriber = Fixture.transcriber()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let waiter = Task { try await analyzer.finalize(through: Fixture.seconds(5)) }
        let finisher = Task { try await analyzer.finish(after: Fixture.seconds(5)) }
        // Let both register, without sleeping: a finalise of nothing is answered after them in order.
        await analyzer.waiterRegistered(after: 1)
        await analyzer.cancelAndFinishNow()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        await #expect(throws: CancellationError.self) { try await finisher.value }
        let results = await collect(transcriber.results)
        #expect(results.error == nil && results.elements.isEmpty)
    }

    @Test func oneEngineErrorReachesEveryWaiterAndEveryStream() async throws {
        let failing = Fixture.engine(faults: [.throwAt(0.55, message: "planted fault")])
        let first = Fixture.transcriber(failing)
        let second = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription, engine: failing)
        let (stream, input) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(inputSequence: stream, modules: [first, second])
        let finalizing = Task { try await analyzer.finalize(through: Fixture.seconds(3)) }
        let finishing = Task { try await analyzer.finalizeAndFinishThroughEndOfInput() }
        await analyzer.waiterRegistered(after: 1)
        for item in Fixture.inputs(count: 10) { input.yield(item) }
        let expected = EngineError.failed(engine: "scripted", reason: "planted fault")
        await #expect(throws: expected) { try await finalizing.value }
        await #expect(throws: expected) { try await finishing.value }
        for results in [await collect(first.results).error, await collect(second.results).error] {
            #expect((results as? EngineError) == expected)
        }
        // Later calls get the same error.
        await #expect(throws: expected) { try await analyzer.finalize(through: Fixture.seconds(4)) }
        input.finish()
    }

    @Test func finalizeAndFinishThroughEndOfInputFollowsAReplacementSequence() async throws {
        let transcriber = Fixture.transcriber()
        let (first, firstInput) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(inputSequence: first, modules: [transcriber])
        let ending = Task { try await analyzer.finalizeAndFinishThroughEndOfInput() }
        await analyzer.waiterRegistered(after: 0)
        for item in Fixture.inputs(count: 5) { firstInput.yield(item) }
        // Replace the input before it ends; the end of the replacement is what counts.
        let second = Fixture.stream(
            Fixture.inputs(count: 15).enumerated().map { i, input in
                AnalyzerInput(buffer: input.storedBuffer, bufferStartTime: Fixture.seconds(0.5 + Double(i) * 0.1))
            })
        // Wait until the first five buffers are in, so none of them is dropped by the replacement.
        await analyzer.consumed(through: Fixture.seconds(0.5))
        #expect((await analyzer.volatileRange?.end ?? .zero) >= Fixture.seconds(0.5))
        try await analyzer.start(inputSequence: second)
        try await ending.value
        firstInput.finish()
        let results = await collect(transcriber.results)
        #expect(results.error == nil)
        #expect(results.elements.filter(\.isFinal).map(\.plain).joined(separator: " ") == "one two three")
    }

    /// The harness events a conformance step waits on to say "still waiting": once the analyzer
    /// has settled, an unanswered call stays unanswered until the caller acts again.
    @Test func settledReportsWhatTheAnalyzerHasLeftAndWhichCallsStillWait() async throws {
        let transcriber = Fixture.transcriber()
        let (first, firstInput) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(inputSequence: first, modules: [transcriber])
        let ending = Task { try await analyzer.finalizeAndFinishThroughEndOfInput() }
        await analyzer.waiterRegistered(after: 0)
        #expect(await analyzer.inputGeneration == 1)
        for item in Fixture.inputs(count: 5) { firstInput.yield(item) }
        let (second, secondInput) = AsyncStream.makeStream(of: AnalyzerInput.self)
        await analyzer.consumed(through: Fixture.seconds(0.5))
        try await analyzer.start(inputSequence: second)
        #expect(await analyzer.inputGeneration == 2)
        // The replaced sequence's end reaches its reader, which must not end the session.
        firstInput.finish()
        await analyzer.settled(inputsEnded: [1])
        #expect(await analyzer.isWaiting(registration: 1))
        #expect(!(await analyzer.isWaiting(registration: 2)))
        // The current sequence's end does; once settled, the call has been answered.
        secondInput.finish()
        await analyzer.settled(inputsEnded: [1, 2])
        #expect(!(await analyzer.isWaiting(registration: 1)))
        try await ending.value
    }

    @Test func startInputAudioFileWithFinishAfterFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("in.wav")
        // 2 s at 44.1 kHz: the analyzer reads the file and converts it to the module's 16 kHz.
        let file = try AVAudioFile(forWriting: url, settings: [AVSampleRateKey: 44_100.0, AVNumberOfChannelsKey: 1])
        try file.write(
            from: Fixture.buffer(seconds: 2, format: AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 1)!))
        file.close()
        let transcriber = Fixture.transcriber()
        let analyzer = try await SpeechAnalyzer(
            inputAudioFile: AVAudioFile(forReading: url), modules: [transcriber], finishAfterFile: true)
        let results = await collect(transcriber.results)
        #expect(results.error == nil)
        #expect(results.elements.filter(\.isFinal).map(\.plain).joined(separator: " ") == "one two three")
        let range = try #require(await analyzer.volatileRange)
        #expect(abs(range.end.seconds - 2) < 0.01)
    }
}
