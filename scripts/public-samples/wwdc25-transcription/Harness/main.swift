// Stands in for the sample's views: makes a story, a transcriber and a recorder as the transcript
// view does, taps "record", and taps "stop" when the virtual microphone's recording has played out
// (the device then stops the engine and posts a configuration change, as when a microphone goes
// away). Prints the story's text and the recording's file, which scripts/try-public-sample checks.
import AVFoundation
import Foundation
import SwiftUI

final class StoryHolder: @unchecked Sendable {
    var story = Story.blank()
}

let holder = StoryHolder()
let story = Binding(get: { holder.story }, set: { holder.story = $0 })
let transcriber = SpokenWordTranscriber(story: story)
let recorder = Recorder(transcriber: transcriber, story: story)

/// Resumes its waiter once, with the first outcome signalled.
final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<(any Error)?, Never>?
    private var outcome: (any Error)??

    func wait() async -> (any Error)? {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let outcome {
                lock.unlock()
                continuation.resume(returning: outcome)
            } else {
                self.continuation = continuation
                lock.unlock()
            }
        }
    }

    func signal(_ error: (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        guard outcome == nil else { return }
        outcome = .some(error)
        continuation?.resume(returning: error)
        continuation = nil
    }
}

let stop = StopSignal()
let observer = NotificationCenter.default.addObserver(
    forName: .AVAudioEngineConfigurationChange, object: nil, queue: nil
) { _ in stop.signal(nil) }

// The sample's record() runs until the tap's stream ends, which the sample never ends: it returns
// only by throwing.
Task {
    do {
        try await recorder.record()
    } catch {
        stop.signal(error)
    }
}

if let error = await stop.wait() {
    print("record failed: \(error)")
    exit(1)
}
NotificationCenter.default.removeObserver(observer)
try await recorder.stopRecording()

// The transcriber's results task adds the final text to the story on its own time, after
// stopRecording returns; the view would redraw when the story changes, so wait for that change
// (up to 10 s, in case it never comes).
if holder.story.text.characters.isEmpty {
    let changed = StopSignal()
    withObservationTracking {
        _ = holder.story.text
    } onChange: {
        changed.signal(nil)
    }
    Task {
        try? await Task.sleep(for: .seconds(10))
        changed.signal(nil)
    }
    _ = await changed.wait()
}
let text = String(holder.story.text.characters)
print("story: \(text)")
print("recording: \(holder.story.url?.path ?? "none")")
