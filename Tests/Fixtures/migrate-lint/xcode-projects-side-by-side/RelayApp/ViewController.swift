import AVFoundation

/// A calling app whose Info.plist is not in the repository: the microphone is captured for the call, nothing is transcribed.
final class ViewController {
    func askForTheMicrophone(_ completion: @escaping (Bool) -> Void) {
        AVAudioSession.sharedInstance().requestRecordPermission { granted in completion(granted) }
    }
}
