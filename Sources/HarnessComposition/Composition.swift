import Corpus
import SpeechCore
import VirtualDevice

/// The program's composition point, run once by SpeechCore's `ProgramComposition` the first time
/// a program reads the engine registry or plays a corpus utterance on the virtual microphone.
/// Nothing here may read `EngineRegistry.shared`'s ids (that would wait on this very call).
@_cdecl("speech_harness_composition")
public func speechHarnessComposition() {
    EngineCatalog.register(into: .shared)
    UtteranceAudio.install { manifest, id throws(MicrophoneError) in
        try CorpusUtterance.audio(manifest: manifest, id: id)
    }
}

/// A corpus utterance's audio, for the virtual microphone.
enum CorpusUtterance {
    static func audio(manifest: String, id: String) throws(MicrophoneError) -> UtteranceAudio {
        let load = ManifestReader.load(path: manifest)
        guard let utterance = load.utterances.first(where: { $0.id == id }) else {
            let reason =
                load.issues.first(where: { $0.utteranceID == id }).map { "\($0)" }
                ?? (load.utterances.isEmpty && !load.issues.isEmpty ? "\(load.issues[0])" : "no utterance with this id")
            throw .utteranceNotFound(manifest: manifest, id: id, reason: reason)
        }
        return UtteranceAudio(
            path: ManifestValidator.resolve(utterance.audio, root: load.root),
            segment: utterance.offset.map { UtteranceAudio.Segment(offset: $0, duration: utterance.duration) })
    }
}
