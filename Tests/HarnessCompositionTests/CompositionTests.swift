import AudioIO
import Foundation
import HarnessComposition
import SpeechCore
import TestSupport
import Testing
import VirtualDevice

/// The composition point: what a program linking it knows without registering anything itself.
@Suite("Composition point")
struct CompositionTests {
    @Test func theProgramRegistryHoldsEveryCatalogEngine() {
        #expect(ProgramComposition.load())
        let catalog = EngineRegistry()
        EngineCatalog.register(into: catalog)
        #expect(Set(catalog.ids).isSubset(of: Set(EngineRegistry.shared.ids)))
        for id in [
            "scripted", "pocketsphinx", "pocketsphinx-digits-batch", "dsp", "dsp-commands", "whisper",
            "whisper-streaming", "whisper-streaming-la2", "whisper-streaming-la2-aligned", "whisper-cpp-stream",
            "whisper-cpp-stream-vad", "whisper-cpp-stream-vad-blocks", "whisperkit-stream", "fault-worker",
        ] {
            #expect(catalog.entry(id) != nil, "\(id) is not in the catalog")
        }
        // Preference order: Whisper, then its streaming policies, then PocketSphinx, DSP, scripted.
        #expect(catalog.ids.first == "whisper")
        #expect(catalog.ids.firstIndex(of: "whisper-cpp-stream")! < catalog.ids.firstIndex(of: "pocketsphinx")!)
        #expect(catalog.ids.firstIndex(of: "dsp")! < catalog.ids.firstIndex(of: "scripted")!)
    }

    @Test func anEmptyRegistryStaysEmpty() throws {
        let registry = EngineRegistry()
        #expect(registry.ids.isEmpty)
        #expect(throws: EngineError.unknownEngine("whisper", known: [])) { try registry.make("whisper") }
    }

    func writeTone(_ directory: TemporaryDirectory, seconds: Double) throws {
        let writer = try AudioFileWriter(
            path: directory.path("tone.wav"), format: AudioFormat(sampleRate: 16_000, channelCount: 1),
            encoding: .pcm16)
        try writer.write(
            PCMBuffer(mono: Signal.sine(frequency: 440, sampleRate: 16_000, seconds: seconds), sampleRate: 16_000))
        writer.close()
    }

    /// The virtual microphone plays a manifest line (`manifest.jsonl#id`) through the corpus
    /// reader the composition point installs; a segment of a longer file plays only its window.
    @Test func theMicrophonePlaysAManifestUtteranceThroughTheCorpusReader() throws {
        let directory = try TemporaryDirectory()
        try writeTone(directory, seconds: 2)
        let manifest = directory.path("manifest.jsonl")
        try Data(
            """
            {"id":"whole","audio":"tone.wav","reference":"a tone","locale":"en-US","duration":2.0}
            {"id":"part","audio":"tone.wav","reference":"a tone","locale":"en-US","offset":0.5,"duration":0.25}

            """.utf8
        ).write(to: URL(fileURLWithPath: manifest))
        let whole = try MicrophoneRecording.load(
            .utterance(manifest: manifest, id: "whole"), sampleRate: 16_000, channelCount: 1)
        #expect(whole.frameCount == 32_000)
        let part = try MicrophoneRecording.load(
            .utterance(manifest: manifest, id: "part"), sampleRate: 16_000, channelCount: 2)
        #expect(part.frameCount == 4_000 && part.channels.count == 2)
        #expect(
            throws: MicrophoneError.utteranceNotFound(
                manifest: manifest, id: "nope", reason: "no utterance with this id")
        ) {
            try MicrophoneRecording.load(
                .utterance(manifest: manifest, id: "nope"), sampleRate: 16_000, channelCount: 1)
        }
    }
}
