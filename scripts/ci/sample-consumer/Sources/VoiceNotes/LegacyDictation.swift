// What the team has not migrated yet: the migration lint reports it (legacy-api), and the action
// shows the finding in code scanning.
import Speech

public func legacyRecognizerIsAvailable() -> Bool {
    SFSpeechRecognizer(locale: Locale(identifier: "en-US"))?.isAvailable ?? false
}
