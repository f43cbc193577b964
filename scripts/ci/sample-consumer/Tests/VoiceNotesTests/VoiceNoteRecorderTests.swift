import Foundation
import Speech
import Testing
import VoiceNotes

/// The team's own tests: they run unchanged on a Mac and, through the action, on Linux with the
/// engine, microphone and device profile the workflow gives.
@Suite struct VoiceNoteRecorderTests {
    @Test func aVoiceNoteHoldsWhatTheMicrophoneHeard() async throws {
        let text = try await VoiceNoteRecorder().record()
        #expect(text.lowercased().contains("forward"), "heard: \(text)")
    }

    @Test func theFeatureIsOfferedOnlyWhereTheTranscriberRuns() async {
        let locales = await SpeechTranscriber.supportedLocales
        let offered = SpeechTranscriber.isAvailable && !locales.isEmpty
        #expect(offered == (ProcessInfo.processInfo.environment["SPEECH_HARNESS_SPEECH_TRANSCRIBER"] != "unavailable"))
    }
}
