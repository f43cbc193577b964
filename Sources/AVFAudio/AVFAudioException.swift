import Foundation

/// Apple's AVFAudio raises an Objective-C exception when an app breaks one of its preconditions
/// (a second tap on a bus, a tap format whose rate is not the hardware's). Nothing can catch it
/// and the app terminates. The stand-ins do the same, with Apple's wording on standard error,
/// so the mistake fails a test run on Linux instead of waiting for a device.
enum AVFAudioException {
    /// Terminates the process (SIGABRT, as an uncaught exception does) after printing the reason.
    static func requiredConditionFailed(_ condition: String, hint: String? = nil) -> Never {
        var message =
            "*** Terminating app due to uncaught exception 'com.apple.coreaudio.avfaudio', "
            + "reason: 'required condition is false: \(condition)'\n"
        if let hint { message += "SpeechHarness: \(hint)\n" }
        FileHandle.standardError.write(Data(message.utf8))
        abort()
    }
}

/// The NSError domain of AVFAudio's thrown errors.
public let AVFAudioErrorDomain = "com.apple.coreaudio.avfaudio"
