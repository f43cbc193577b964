import AVFoundation
import Speech

/// Plays imported clips through an audio engine and transcribes their files: the engine never touches the microphone.
final class ClipPlayer {
    private let engine = AVAudioEngine()
    private let player = AVAudioPlayerNode()

    func play(_ file: AVAudioFile) throws {
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        try engine.start()
        player.scheduleFile(file, at: nil)
        player.play()
    }

    func transcribe(_ url: URL) {
        SFSpeechRecognizer()?.recognitionTask(with: SFSpeechURLRecognitionRequest(url: url)) { _, _ in } // lint: legacy-api
    }
}
