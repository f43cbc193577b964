import Foundation

/// The threads the virtual microphone and speaker run on: one per start, named, and marked with
/// their owner so that a stop called from the thread itself knows not to wait for its own end.
enum DeviceThread {
    private static let key = "SpeechHarness.DeviceThread"

    /// Runs `body` on a new thread of `owner`'s; `finished` is signalled when it returns.
    static func start(
        _ name: String, owner: AnyObject, finished: DispatchSemaphore, body: @escaping @Sendable () -> Void
    ) {
        let thread = Thread {
            body()
            finished.signal()
        }
        thread.name = name
        thread.threadDictionary[key] = ObjectIdentifier(owner).hashValue
        thread.start()
    }

    /// Whether the calling thread is one of `owner`'s.
    static func isCurrent(of owner: AnyObject) -> Bool {
        (Thread.current.threadDictionary[key] as? Int) == ObjectIdentifier(owner).hashValue
    }
}
