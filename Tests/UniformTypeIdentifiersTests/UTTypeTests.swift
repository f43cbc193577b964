import Foundation
import Testing
import UniformTypeIdentifiers

@Suite("UTType and URL extensions")
struct UTTypeTests {
    @Test func audioTypesHaveTheirExtensionsAndConformToAudio() {
        #expect(
            UTType.wav.preferredFilenameExtension == "wav" && UTType.wav.identifier == "com.microsoft.waveform-audio")
        #expect(UTType.mpeg4Audio.preferredFilenameExtension == "m4a")
        #expect(UTType(filenameExtension: "AIF") == .aiff)
        #expect(UTType(filenameExtension: "xyz") == nil)
        #expect(UTType("public.mp3") == .mp3 && UTType(mimeType: "audio/flac") == .audioFLAC)
        #expect(UTType.wav.conforms(to: .audio) && UTType.wav.conforms(to: .data) && UTType.wav.conforms(to: .item))
        #expect(!UTType.wav.conforms(to: .text) && UTType.audio.isSupertype(of: .mp3))
    }

    @Test func urlsGetTheTypesExtension() {
        let directory = URL(fileURLWithPath: "/tmp/recordings")
        #expect(
            directory.appendingPathComponent("take").appendingPathExtension(for: .wav).path
                == "/tmp/recordings/take.wav")
        // A type without an extension leaves the URL as it is.
        #expect(directory.appendingPathExtension(for: .audio) == directory)
        #expect(directory.appendingPathComponent("take", conformingTo: .mpeg4Audio).lastPathComponent == "take.m4a")
        // A name that already has one of the type's extensions keeps it.
        #expect(directory.appendingPathComponent("take.WAV", conformingTo: .wav).lastPathComponent == "take.WAV")
        #expect(directory.appendingPathComponent("take.txt", conformingTo: .wav).lastPathComponent == "take.txt.wav")
        var url = directory.appendingPathComponent("memo")
        url.appendPathExtension(for: .aiff)
        #expect(url.lastPathComponent == "memo.aiff")
    }
}
